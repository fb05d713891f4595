/// `.width [N …]`: sqlite3's column widths for the aligned modes.
enum WidthCommand {
    static let width = Placeholder("N", .wholeNumber(from: -1000, to: 1000))

    static let command = ShellCommand(
        ".width", arguments: [.optional([.repeated([.value(width)])])],
        summary: "set the width of each column in table, box and markdown modes (0: as wide as its values); with no N, back to automatic",
        example: ".width 4 -8 30",
        details: """
            As sqlite3's .width: the first N is the first column's width, and so on; a negative N \
            right-aligns the column. A value longer than its column wraps over several lines, as \
            sqlite3 wraps it (it is never cut). Columns past the list, and those given 0, are as \
            wide as their values, fitted to the terminal.
            """
    ) { shell, arguments in
        shell.settings.columnWidths = arguments.words(width).compactMap { Int($0) }
    }
}
