/// `.open [--model PATH] STORE`: opens another store.
enum OpenCommand {
    static let store = Placeholder("STORE", .file)

    static let command = ShellCommand(
        ".open", arguments: [.option("--model", Placeholder("PATH", .file)), .value(store)], summary: "open a store (read-only unless started with --write)",
        example: ".open examples/BookStore/BookStore.sqlite",
        details: """
            --model PATH opens the store with a model file (.xcdatamodeld, .xcdatamodel or compiled .mom) \
            instead of the model the store carries. A STORE that is a symbolic link is followed: the -wal and \
            -journal read are the ones beside its target. Only a regular file is opened (a FIFO, device or \
            directory is refused). A store that .output or .journal writes to (or to one of its -wal, -shm \
            and -journal files) is refused.
            """
    ) { shell, arguments in
        let modelPath = arguments.value(of: "--model")
        try shell.open(path: shell.resolve(path: try arguments.word(store)), modelPath: modelPath.map(shell.resolve(path:)))
    }
}
