extension Shell {
    /// Runs one command line. Empty lines and `--` comments do nothing; a `;` at the end is
    /// dropped (`count Book;`).
    ///
    /// The line's first word names the command (a dot-command may be shortened to a
    /// unique prefix, `.ent`); a command that changes data needs `--write`; the rest is
    /// split into words, checked against the command's declared arguments (the usage error
    /// when they do not fit), and the command runs with them, as one undo group (see
    /// ``withUndoGroup(for:line:_:)``).
    public func execute(_ line: String) throws {
        try execute(command: line[...])
    }

    /// Runs one command, a slice of the line it was typed on: messages that point at a
    /// column (a predicate's caret) count it from the start of that line.
    func execute(command line: Substring) throws {
        var trimmed = line.trimmedSlice()
        if trimmed.last == ";" { trimmed = trimmed.dropLast().trimmedSlice() }
        guard !trimmed.isEmpty, !trimmed.hasPrefix("--"), !trimmed.hasPrefix("#") else { return }
        let nameEnd = trimmed.firstIndex(where: \.isWhitespace) ?? trimmed.endIndex
        let name = String(trimmed[..<nameEnd])
        let rest = trimmed[nameEnd...].drop(while: \.isWhitespace)
        let command = try resolveCommand(name)
        if command.writes, !writeEnabled {
            throw ShellError("\(command.name) changes data; open the store with --write to allow it")
        }
        let words = try CommandLineSplitter.split(rest)
        try withUndoGroup(for: command, line: String(trimmed)) {
            let arguments = try ParsedArguments(words, text: rest, command: command.name, syntax: command.arguments)
            try command.run(self, arguments)
        }
    }

    /// The command typed as `name`: by its name or an alias (any case), or for a
    /// dot-command by a prefix only it has (`.ent` for `.entities`, as sqlite3 allows).
    /// An unknown name is an error suggesting the names it is close to.
    func resolveCommand(_ name: String) throws(ShellError) -> ShellCommand {
        if let command = command(named: name) { return command }
        let names = commands.flatMap { [$0.name] + $0.aliases }
        if name.hasPrefix("."), name.count > 1 {
            let typed = name.lowercased()
            let matching = commands.filter { command in ([command.name] + command.aliases).contains { $0.hasPrefix(typed) } }
            if matching.count == 1 { return matching[0] }
            if matching.count > 1 {
                throw ShellError("ambiguous command \(name): \(matching.map(\.name).joined(separator: ", "))")
            }
        }
        if sqlKeywords.contains(name.uppercased()) {
            throw ShellError("unknown command \(name); SQL runs with sql (sql \(name) …), one statement at a time, reading only")
        }
        throw ShellError("unknown command \(name)" + Suggestion.didYouMean(name, among: names, otherwise: "; .help lists the commands"))
    }

    /// The words SQL statements start with, which sqlite3 users type at a prompt.
    private var sqlKeywords: Set<String> {
        ["SELECT", "WITH", "PRAGMA", "EXPLAIN", "VALUES", "INSERT", "UPDATE", "DELETE", "REPLACE", "CREATE", "DROP", "ALTER", "BEGIN", "COMMIT", "VACUUM", "ATTACH"]
    }
}
