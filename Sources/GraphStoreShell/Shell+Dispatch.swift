extension Shell {
    /// Runs one command line. Empty lines and `--` comments do nothing; a `;` at the end is
    /// dropped (`count Book;`). SQL typed bare (``BareSQL``: `SELECT …`, `PRAGMA …`,
    /// `ATTACH …`) runs as `sql` runs it, reading only.
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
        let second = rest.prefix { !$0.isWhitespace }
        if BareSQL.starts(name, second.isEmpty ? nil : String(second)), name.lowercased() == BareSQL.explain || command(named: name) == nil {
            return try SQLCommand.run(trimmed, shell: self)
        }
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
        if writingSQLVerbs.contains(name.uppercased()) {
            throw ShellError("unknown command \(name); graphstore runs only SQL that reads: SELECT, WITH, VALUES, EXPLAIN, PRAGMA that reports, ATTACH")
        }
        throw ShellError("unknown command \(name)" + Suggestion.didYouMean(name, among: names, otherwise: "; .help lists the commands"))
    }

    /// The words SQL statements that write start with, which sqlite3 users type at a prompt
    /// (`insert`, `delete` and `begin` are the shell's own commands).
    private var writingSQLVerbs: Set<String> {
        ["UPDATE", "REPLACE", "CREATE", "DROP", "ALTER", "COMMIT", "VACUUM", "REINDEX", "ANALYZE", "SAVEPOINT", "RELEASE"]
    }
}
