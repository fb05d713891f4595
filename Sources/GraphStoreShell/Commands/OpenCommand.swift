/// `.open [--write|--readonly] [--model PATH] [--create] STORE`: opens another store, or
/// makes a new one for a model.
enum OpenCommand {
    static let store = Placeholder("STORE", .file)

    static let command = ShellCommand(
        ".open",
        arguments: [.flag("--write"), .flag("--readonly"), .option("--model", Placeholder("PATH", .file)), .flag("--create"), .value(store)],
        summary: "open a store: read-only, or for writing with --write (as graphstore was started when neither is given)",
        example: ".open examples/BookStore/BookStore.sqlite",
        details: """
            --write and --readonly switch stores as they do on the command line; with neither, the \
            store is opened as graphstore was started. --model PATH opens the store with a model file \
            (.xcdatamodeld, .xcdatamodel or compiled .mom) instead of the model the store carries. A \
            STORE that is a symbolic link is followed: the -wal and -journal read are the ones beside \
            its target. Only a regular file is opened (a FIFO, device or directory is refused). A \
            store that .output or .journal writes to (or to one of its -wal, -shm and -journal files) \
            is refused. The store open until then must have no unsaved changes: save or rollback first. \
            --create (with --write and --model) makes STORE, which must not exist, as an empty store in \
            Core Data's layout for the model's current version, and opens it.
            """
    ) { shell, arguments in
        if arguments.has("--write"), arguments.has("--readonly") { throw ShellError(".open: --write and --readonly cannot be given together") }
        let summary = ChangeSummary(shell.context)
        if summary.total > 0 {
            throw ShellError(".open: \(summary.sentence) in the open store; save or rollback first")
        }
        let write = arguments.has("--write") ? true : arguments.has("--readonly") ? false : shell.writeEnabledAtStart
        let modelPath = arguments.value(of: "--model")
        if arguments.has("--create"), !write || modelPath == nil { throw ShellError(".open: --create needs --write and --model") }
        let before = shell.writeEnabled
        shell.writeEnabled = write
        do {
            let path = shell.resolve(path: try arguments.word(store))
            if arguments.has("--create"), let modelPath {
                try shell.create(path: path, modelPath: shell.resolve(path: modelPath))
            } else {
                try shell.open(path: path, modelPath: modelPath.map(shell.resolve(path:)))
            }
        } catch {
            shell.writeEnabled = before
            throw error
        }
    }
}
