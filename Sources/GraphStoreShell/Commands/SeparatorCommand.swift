/// `.separator [COL [ROW]]`: what separates values and rows in list and csv modes.
enum SeparatorCommand {
    static let column = Placeholder("COL")
    static let row = Placeholder("ROW")

    static let command = ShellCommand(
        ".separator", arguments: [.optional([.value(column), .optional([.value(row)])])],
        summary: "separate values with COL (and end rows with ROW) in list and csv modes; with nothing, show them",
        example: ".separator ;",
        details: """
            As sqlite3's .separator: \\t, \\n, \\r and \\\\ stand for a tab, a line feed, a carriage return \
            and a backslash. The defaults are | for list and , for csv, and \\n for rows; choosing a mode \
            with .mode puts them back.
            """
    ) { shell, arguments in
        guard let typed = arguments[column] else {
            let shown = [shell.settings.columnSeparator ?? "(the mode's own)", shell.settings.rowSeparator ?? "\\n"]
            shell.output("separators: \(shown.map(escaped).joined(separator: " "))\n")
            return
        }
        shell.settings.columnSeparator = unescaped(typed)
        if let row = arguments[row] { shell.settings.rowSeparator = unescaped(row) }
    }

    /// `\t`, `\n`, `\r` and `\\` as the characters they stand for.
    static func unescaped(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var out = ""
        var escaping = false
        for character in text {
            if escaping {
                switch character {
                case "t": out.append("\t")
                case "n": out.append("\n")
                case "r": out.append("\r")
                default: out.append(character)
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                out.append(character)
            }
        }
        if escaping { out.append("\\") }
        return out
    }

    /// The separator as `.separator` takes it.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\t", with: "\\t")
            .replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r")
    }
}
