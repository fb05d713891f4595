import Foundation
import GraphStore

/// `validate [ENTITY] [where PREDICATE]`: checks stored objects against the model's rules,
/// streaming rows, and prints one row per failure. Fails (exit status 3) when any is found.
enum ValidateCommand {
    static let entityName = Placeholder("ENTITY", .entity)
    static let predicateText = Placeholder("PREDICATE", .predicate)

    static let command = ShellCommand(
        "validate", arguments: [.optional([.value(entityName)]), .optional([.literal("where"), .value(predicateText)])],
        summary: "check stored objects against the model (values, relationship sizes, uniqueness, dangling references); one row per failure: object, entity, key, value, rule, code; for the whole store, storage anomalies as warnings",
        example: "validate Book where price < 20"
    ) { shell, arguments in
        let store = try shell.requireStore()
        let entity = try arguments[entityName].map { try shell.mapping($0).name }
        let predicate = try arguments.text(from: predicateText).map {
            try FetchCommandLine.predicate($0, command: "validate", shell: shell, entity: entity)
        }
        let started = Date()
        var summary = StoreValidator.Summary()
        do {
            try shell.emit(columns: ValidationRows.columns) { sink in
                summary = try StoreValidator(store: store).validate(entity: entity, where: predicate) { sink.row(ValidationRows.cells($0)) }
            }
        } catch {
            throw ShellError("validate: \(error)")
        }
        if entity == nil, predicate == nil { try warnAboutStorage(store, shell: shell) }
        let seconds = String(format: "%.2f", Date().timeIntervalSince(started))
        let found = "\(summary.failures) failure\(summary.failures == 1 ? "" : "s") in \(summary.objectsChecked) object\(summary.objectsChecked == 1 ? "" : "s") (\(seconds) s)"
        guard summary.failures == 0 else { throw ShellError("validate: \(found)", exitCode: ExitStatus.validationFailures) }
        shell.diagnostics("validate: \(found)\n")
    }

    /// The store's storage anomalies (a column without Core Data's type, keys stored as
    /// text, a `Z_MAX` too small, rows of no entity, missing or orphan external data files),
    /// one warning each with its count, after the failures.
    private static func warnAboutStorage(_ store: PersistentStore, shell: Shell) throws {
        let anomalies = try store.storageAnomalies()
        guard !anomalies.isEmpty else { return }
        shell.flushOutput()
        for anomaly in anomalies { shell.diagnostics("warning: \(anomaly)\n") }
        shell.state.hasWarned = true
    }
}
