import GraphStore

/// `begin [NAME]` … `end`: the command lines between them make one undo group.
enum UndoGroupCommands {
    static let begin = ShellCommand(
        "begin", usage: "begin [NAME]",
        summary: "start one undo group for several command lines, named NAME (or by its commands); end closes it",
        example: "begin restock", writes: true
    ) { shell, _, rest in
        let name = rest.trimmingCharacters(in: .whitespaces)
        try shell.beginBlock(name: name.isEmpty ? nil : name)
    }

    static let end = ShellCommand(
        "end", usage: "end", summary: "close the undo group that begin started", example: "end", writes: true
    ) { shell, words, _ in
        guard words.isEmpty else { throw ShellError("usage: end") }
        let lines = shell.undoState.block?.lines.count ?? 0
        if let number = try shell.endBlock() {
            shell.output("ended group #\(number) (\(lines) command\(lines == 1 ? "" : "s"))\n")
        } else {
            shell.output("ended group: nothing changed\n")
        }
    }
}
