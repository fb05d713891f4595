/// `.open [--model PATH] STORE`: opens another store.
enum OpenCommand {
    static let command = ShellCommand(
        ".open", usage: ".open [--model PATH] STORE", summary: "open a store (read-only unless started with --write)",
        example: ".open --model App.xcdatamodeld App.sqlite"
    ) { shell, words, _ in
        var words = words
        var modelPath: String?
        if words.first == "--model" {
            guard words.count >= 2 else { throw ShellError("usage: .open [--model PATH] STORE") }
            modelPath = words[1]
            words.removeFirst(2)
        }
        guard words.count == 1 else { throw ShellError("usage: .open [--model PATH] STORE") }
        try shell.open(path: words[0], modelPath: modelPath)
    }
}
