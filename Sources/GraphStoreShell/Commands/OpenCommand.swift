/// `.open [--model PATH] STORE`: opens another store.
enum OpenCommand {
    static let command = ShellCommand(
        ".open", usage: ".open [--model PATH] STORE", summary: "open a store (read-only unless started with --write)",
        example: ".open examples/BookStore/BookStore.sqlite",
        details: """
            --model PATH opens the store with a model file (.xcdatamodeld, .xcdatamodel or compiled .mom) \
            instead of the model the store carries. A STORE that is a symbolic link is followed: the -wal and \
            -journal read are the ones beside its target. Only a regular file is opened (a FIFO, device or \
            directory is refused). A store that .output or .journal writes to (or to one of its -wal, -shm \
            and -journal files) is refused.
            """
    ) { shell, words, _ in
        var words = words
        var modelPath: String?
        if words.first == "--model" {
            guard words.count >= 2 else { throw ShellError("usage: .open [--model PATH] STORE") }
            modelPath = words[1]
            words.removeFirst(2)
        }
        guard words.count == 1 else { throw ShellError("usage: .open [--model PATH] STORE") }
        try shell.open(path: shell.resolve(path: words[0]), modelPath: modelPath.map(shell.resolve(path:)))
    }
}
