import Foundation
import GraphStore

/// `diff OTHER [--key ENTITY=ATTR,…] [--json] [--script FILE]`: what changed from the open
/// store to another store of the same model, matched by natural key.
enum DiffCommand {
    static let other = Placeholder("OTHER", .file)
    static let scriptFile = Placeholder("FILE", .file)

    static let command = ShellCommand(
        "diff", arguments: [ImportExportCommands.keyOption, .flag("--json"), .option("--script", scriptFile), .value(other)],
        summary: "objects added, removed and changed from the open store to OTHER, matched by natural key (--key); --script writes a seed update",
        example: "diff new-seed.sqlite --key Book=title,BookCategory=name",
        details: """
            The open store is the old one; OTHER, the new one, is read with the same model, read-only. \
            Objects are matched by a natural key per entity (--key Entity=attribute, several comma-separated; \
            a one-attribute uniqueness constraint serves when none is given): Z_PKs of the same object differ \
            between two stores built apart. An entity without a key is matched by Z_PK, with a warning. One \
            row per changed property: change, entity, key, property, old, new. --script FILE writes the \
            difference as a seed update that seed apply runs: insert, set, link, unlink and delete steps by \
            natural key, each guarded so that running it twice changes nothing. The count of objects that \
            differ goes to standard error.
            """
    ) { shell, arguments in
        let store = try shell.requireStore()
        let path = shell.resolve(path: try arguments.word(other))
        let keys = try ImportExportCommands.naturalKeys(arguments, shell: shell)
        let script = try arguments.value(of: "--script").map { script throws(ShellError) in
            try checkedScript(script, other: path, shell: shell)
        }
        let diff: StoreDiff
        do {
            let newer = try PersistentStore(path: path, model: store.model, origin: .file(path), readOnly: true)
            diff = try StoreDiff(old: try shell.requireContext(), new: ManagedObjectContext(store: newer), keys: keys)
        } catch {
            throw ShellError("diff: \(error)")
        }
        for warning in diff.warnings { shell.diagnostics("diff: warning: \(warning)\n") }
        if let script {
            let text = diff.updateScript(header: "\((store.path as NSString).lastPathComponent) → \((path as NSString).lastPathComponent)")
            do {
                try text.write(toFile: shell.resolve(path: script), atomically: true, encoding: .utf8)
            } catch {
                throw ShellError("diff: cannot write \(script): \(error.localizedDescription)")
            }
        }
        let saved = shell.settings
        if arguments.has("--json") { shell.settings.select(.json) }
        defer { shell.settings = saved }
        shell.emit(columns: ["change", "entity", "key", "property", "old", "new"]) { sink in
            for change in diff.changes {
                if change.properties.isEmpty || change.kind == .removed {
                    sink.row([.text(change.kind.rawValue), .text(change.entity), .text(change.key), .null, .null, .null])
                }
                guard change.kind != .removed else { continue }
                for property in change.properties {
                    sink.row([.text(change.kind.rawValue), .text(change.entity), .text(change.key), .text(property.name), cell(property.old), cell(property.new)])
                }
            }
        }
        let count = diff.changes.count
        shell.diagnostics(count == 0 ? "diff: no differences\n" : "diff: \(count) object\(count == 1 ? " differs" : "s differ")\n")
    }

    /// The script's path, refused before the diff runs when it is a file of the open store
    /// or of the store compared (however spelt): the script is written by renaming over it.
    private static func checkedScript(_ script: String, other: String, shell: Shell) throws(ShellError) -> String {
        try shell.checkNotStoreFile(shell.resolve(path: script), shownAs: script)
        if StoreFiles(storePath: other).role(of: shell.resolve(path: script)) != nil {
            throw ShellError("cannot write \(script): it is a file of the store compared, \(other)")
        }
        return script
    }

    private static func cell(_ field: SeedRecord.Field) -> Cell {
        switch field {
        case .null: .null
        case .text(let text): .text(text)
        case .keys(let list): .text(list.joined(separator: "|"))
        }
    }
}
