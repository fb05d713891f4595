/// `.mode [MODE]`: how results are printed.
///
/// The details list the modes as plain text rather than built from `OutputMode.summary`:
/// building it costs start-up time on every run; a test keeps the two in step.
enum ModeCommand {
    static let modeName = Placeholder("MODE", .mode)

    static let command = ShellCommand(
        ".mode", arguments: [.optional([.value(modeName)])],
        summary: "set the output mode: table box csv tsv json jsonl line list markdown html",
        example: ".mode json",
        details: """
            With no MODE, prints the current mode. The modes:
            table: aligned columns with +---+ borders, fitted to the terminal
            box: aligned columns with box-drawing borders, fitted to the terminal
            csv: comma-separated values (RFC 4180 quoting)
            tsv: tab-separated values (\\t, \\n, \\\\ escaped)
            json: a JSON array of objects, [] when empty; numbers typed, dates ISO 8601, bytes 0x hex
            jsonl: one JSON object per line
            line: one 'column = value' line per value, rows separated by a blank line
            list: values separated by | (or .separator), unquoted, as sqlite3's list mode
            markdown: a Markdown table
            html: HTML table rows (<TR><TD>), as sqlite3's html mode
            sqlite3's names column and tabs are accepted for table and tsv. Choosing a mode \
            puts the separators of list and csv back to | and , (as in sqlite3).
            Values print exactly in every mode: dates with the fractional digits the stored value \
            needs (2017-09-12T16:46:28.940283Z), Binary and Transformable values whole as 0x and \
            hex (as import and set read them; table and box show <16 bytes: 09d1ca5b…>), \
            infinities as inf and -inf (in JSON the strings "inf" and "-inf").
            """
    ) { shell, arguments in
        guard let name = arguments[modeName] else {
            shell.output("\(shell.settings.mode.rawValue)\n")
            return
        }
        shell.settings.select(try mode(named: name))
    }

    /// A mode by name, with sqlite3's names for the same thing.
    static func mode(named name: String) throws(ShellError) -> OutputMode {
        if let mode = OutputMode(rawValue: name.lowercased()) { return mode }
        switch name.lowercased() {
        case "column": return .table
        case "tabs": return .tsv
        case "ndjson": return .jsonl
        default:
            let names = OutputMode.allCases.map(\.rawValue)
            throw ShellError("no output mode \(name)" + Suggestion.didYouMean(name, among: names, otherwise: "; modes: \(names.joined(separator: " "))"))
        }
    }
}
