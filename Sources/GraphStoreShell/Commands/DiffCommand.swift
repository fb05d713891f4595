import Foundation
import GraphStore

/// `diff OTHER [--key ENTITY=ATTR,…] [--json] [--script FILE] [--exit-code]`: what changed
/// from the open store to another store of the same model, matched by natural key.
enum DiffCommand {
    static let other = Placeholder("OTHER", .file)
    static let scriptFile = Placeholder("FILE", .file)

    static let command = ShellCommand(
        "diff", arguments: [ImportExportCommands.keyOption, .flag("--json"), .option("--script", scriptFile), .flag("--exit-code"), .value(other)],
        summary: "objects added, removed and changed from the open store to OTHER, matched by natural key (--key); --script writes a seed update",
        example: "diff new-seed.sqlite --key Book=title,BookCategory=name",
        details: """
            The open store is the old one; OTHER, the new one, is read with the same model, read-only. \
            Objects are matched by a natural key per entity (--key Entity=attribute, several comma-separated; \
            the model's first uniqueness constraint serves when none is given): Z_PKs of the same object \
            differ between two stores built apart. A key may join several parts with + \
            (--key Ingredient=name+recipe); a to-one part stands for its destination's own key, and the key \
            shows as a JSON array of the parts. An entity without a key is matched by Z_PK, with a warning. \
            One row per changed property: change, entity, key, property, old, new. --script FILE writes the \
            difference as a seed update that seed apply runs: insert, set, link, unlink and delete steps by \
            natural key, each guarded so that running it twice changes nothing. The script is tried on the \
            open store first (nothing saved): if any difference would remain (an entity with no key, a key \
            two objects share, a reordered ordered to-many, a delete that would cascade to an object the \
            script keeps), no script is written and the error names each entity and why. The count of \
            objects that differ goes to standard error; with --exit-code the status is 1 when the stores \
            differ and 0 when they do not (as diff(1) and git diff --exit-code), else 0 either way.
            """
    ) { shell, arguments in
        let store = try shell.requireStore()
        let path = shell.resolve(path: try arguments.word(other))
        let keys = try ImportExportCommands.naturalKeys(arguments, shell: shell)
        let script = try arguments.value(of: "--script").map { script throws(ShellError) in
            try checkedScript(script, other: path, shell: shell)
        }
        let context = try shell.requireContext()
        if script != nil, context.hasChanges {
            throw ShellError("diff --script: the session has unsaved changes; save or rollback first (the script is tried on the stored objects)")
        }
        let diff: StoreDiff
        let newer: ManagedObjectContext
        do {
            newer = ManagedObjectContext(store: try PersistentStore(path: path, model: store.model, origin: .file(path), readOnly: true))
            diff = try StoreDiff(old: context, new: newer, keys: keys)
        } catch {
            throw ShellError("diff: \(error)")
        }
        for warning in diff.warnings { shell.diagnostics("diff: warning: \(warning)\n") }
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
        if let script {
            let header = "\((store.path as NSString).lastPathComponent) → \((path as NSString).lastPathComponent)"
            let text: String
            do {
                // Tried on a context of its own, so that the session's objects stay as they are.
                text = try diff.verifiedUpdateScript(header: header, old: ManagedObjectContext(store: store), new: newer)
            } catch {
                throw ShellError("diff --script: \(error)")
            }
            do {
                try text.write(toFile: shell.resolve(path: script), atomically: true, encoding: .utf8)
            } catch {
                throw ShellError("diff: cannot write \(script): \(error.localizedDescription)")
            }
        }
        if count > 0, arguments.has("--exit-code") { throw ScriptFailure(status: ExitStatus.commandFailed) }
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
