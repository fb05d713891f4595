import GraphStore

/// `.model`: where the model came from, its version identifiers, entity count, and
/// anything inferred or odd about the store.
enum ModelCommand {
    static let command = ShellCommand(
        ".model", summary: "show where the model came from, its versions, entity count, and what was inferred",
        example: ".model"
    ) { shell, _ in
        let store = try shell.requireStore()
        shell.emit(columns: ["item", "value"]) { sink in
            func row(_ item: String, _ value: String) { sink.row([.text(item), .text(value)]) }
            // A store opened to browse despite a mismatch says so first.
            for difference in shell.modelMismatch { row("mismatch", difference) }
            row("store", store.path)
            row("store UUID", store.uuid)
            row("model from", store.modelOrigin.description)
            // A bundle's model is its current version.
            if case .file(let path) = store.modelOrigin, let bundle = try? ModelBundle(path: path), !bundle.versions.isEmpty {
                row("model version", "\(bundle.currentVersion ?? "none marked current") (the bundle's current; versions: \(bundle.versions.joined(separator: ", ")))")
            }
            row("entities", String(store.model.entities.count))
            row("version identifiers", store.model.versionIdentifiers.map { "\"\($0)\"" }.joined(separator: ", "))
            row("store version identifiers", store.metadata.versionIdentifiers.map { "\"\($0)\"" }.joined(separator: ", "))
            if let version = store.metadata.frameworkVersion { row("written by Core Data framework", String(version)) }
            row("read-only", store.isReadOnly ? "yes" : "no")
            if case .inferred(let notes) = store.modelOrigin {
                for note in notes {
                    row("inferred", note.hasSuffix(ModelOrigin.renamingMigrationNote) ? note + "; open with --model to use the current names" : note)
                }
            }
            for anomaly in store.anomalies { row("anomaly", anomaly) }
        }
    }
}
