extension Shell {
    /// Runs one command line. Empty lines and `--` comments do nothing.
    ///
    /// The line's first word names the command; a command that changes data needs
    /// `--write`; the rest is split into words, checked against the command's declared
    /// arguments (the usage error when they do not fit), and the command runs with them,
    /// as one undo group (see ``withUndoGroup(for:line:_:)``).
    public func execute(_ line: String) throws {
        let trimmed = line.trimmingWhitespace()
        guard !trimmed.isEmpty, !trimmed.hasPrefix("--"), !trimmed.hasPrefix("#") else { return }
        let nameEnd = trimmed.firstIndex(where: \.isWhitespace) ?? trimmed.endIndex
        let name = String(trimmed[..<nameEnd])
        let rest = trimmed[nameEnd...].drop(while: \.isWhitespace)
        guard let command = command(named: name) else {
            throw ShellError("unknown command \(name); .help lists the commands")
        }
        if command.writes, !writeEnabled {
            throw ShellError("\(command.name) changes data; open the store with --write to allow it")
        }
        let words = try CommandLineSplitter.split(rest)
        try withUndoGroup(for: command, line: trimmed) {
            let arguments = try ParsedArguments(words, text: rest, command: command.name, syntax: command.arguments)
            try command.run(self, arguments)
        }
    }
}
