/// `.output [FILE]` and `.once FILE`: results to a file.
enum OutputCommand {
    static let file = Placeholder("FILE", .file)

    static let output = ShellCommand(
        ".output", aliases: ["\\o"], arguments: [.optional([.value(file)])], summary: "send output to FILE (created or emptied); with no FILE, back to standard output",
        example: ".output books.csv",
        details: """
            Messages and errors still go to standard error. Output to a file is never cut to fit or coloured. \
            FILE is created (or emptied) when the first result is written to it, or, empty, when the output \
            goes elsewhere; the open store and its -wal, -shm and -journal files are refused, however they are \
            named. A write that fails (a full disk, a pipe whose reader has gone) fails the command that wrote.
            """
    ) { shell, arguments in
        if let path = arguments[file], path != "-", path != "stdout" {
            try shell.redirectOutput(to: path, once: false)
        } else {
            try shell.endRedirection()
        }
    }

    static let once = ShellCommand(
        ".once", arguments: [.value(file)], summary: "send the next command's output to FILE",
        example: ".once books.json",
        details: "As .output FILE, for one command: if that command fails before writing, FILE is left as it was."
    ) { shell, arguments in
        try shell.redirectOutput(to: try arguments.word(file), once: true)
    }
}
