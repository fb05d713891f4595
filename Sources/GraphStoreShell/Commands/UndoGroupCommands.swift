import GraphStore

/// `begin [NAME]` … `end`: the command lines between them make one undo group.
enum UndoGroupCommands {
    static let name = Placeholder("NAME", .text)

    static let begin = ShellCommand(
        "begin", arguments: [.optional([.value(name)])],
        summary: "start one undo group for several command lines, named NAME (or by its commands); end closes it",
        example: "begin restock", writes: true
    ) { shell, arguments in
        try shell.beginBlock(name: arguments.text(from: name).map(String.init))
    }

    static let end = ShellCommand(
        "end", summary: "close the undo group that begin started", example: "end", writes: true
    ) { shell, _ in
        let lines = shell.undoState.block?.lines.count ?? 0
        if let number = try shell.endBlock() {
            shell.output("ended group #\(number) (\(lines) command\(lines == 1 ? "" : "s"))\n")
        } else {
            shell.output("ended group: nothing changed\n")
        }
    }
}
