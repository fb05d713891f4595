import Foundation
import GraphStore

/// `validate [ENTITY] [where PREDICATE]`: checks stored objects against the model's rules,
/// streaming rows, and prints one row per failure. Fails (exit status 3) when any is found.
enum ValidateCommand {
    static let command = ShellCommand(
        "validate", usage: "validate [ENTITY] [where PREDICATE]",
        summary: "check stored objects against the model (values, relationship sizes, uniqueness, dangling references); one row per failure: object, entity, key, value, rule, code",
        example: "validate Book where price < 20"
    ) { shell, words, rest in
        let store = try shell.requireStore()
        var entity: String?
        var remainder = rest.drop(while: \.isWhitespace)
        if let first = words.first, first.lowercased() != "where" {
            entity = try shell.mapping(first).name
            remainder = remainder.dropFirst(first.count).drop(while: \.isWhitespace)
        }
        var predicate: ObjectPredicate?
        if !remainder.isEmpty {
            guard remainder.prefix(5).lowercased() == "where", remainder.dropFirst(5).first?.isWhitespace == true else {
                throw ShellError("usage: validate [ENTITY] [where PREDICATE]")
            }
            predicate = try FetchCommandLine.predicate(String(remainder.dropFirst(5).drop(while: \.isWhitespace)), command: "validate", shell: shell)
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
        let seconds = String(format: "%.2f", Date().timeIntervalSince(started))
        let found = "\(summary.failures) failure\(summary.failures == 1 ? "" : "s") in \(summary.objectsChecked) object\(summary.objectsChecked == 1 ? "" : "s") (\(seconds) s)"
        guard summary.failures == 0 else { throw ShellError("validate: \(found)", exitCode: ExitStatus.validationFailures) }
        shell.diagnostics("validate: \(found)\n")
    }
}
