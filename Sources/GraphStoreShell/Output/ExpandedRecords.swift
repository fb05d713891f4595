/// psql's expanded display (`\x`): each row as a record, one field per line under a
/// `-[ RECORD n ]` header line, the values lined up after the column names.
///
/// ```
/// -[ RECORD 1 ]--+----------------
/// Z_PK           | 1
/// ZTITLE         | The first book
/// ```
///
/// Table mode draws it in ASCII as psql does; box mode with box-drawing lines. Records are
/// written as they come, so a result of any size streams.
struct ExpandedRecords {
    private let columns: [String]
    private let labelWidth: Int
    private let settings: OutputSettings
    private let unicode: Bool
    private var count = 0
    /// The width of the widest value so far: header lines reach over it.
    private var valueWidth = 0

    init(columns: [String], settings: OutputSettings) {
        self.columns = columns
        self.settings = settings
        labelWidth = columns.map(DisplayWidth.of).max() ?? 0
        unicode = settings.mode == .box
    }

    /// Widens the header lines for a row to come.
    mutating func fit(_ cells: [Cell]) {
        valueWidth = max(valueWidth, lines(cells).flatMap { $0 }.map(DisplayWidth.of).max() ?? 0)
    }

    /// Each value's lines.
    private func lines(_ cells: [Cell]) -> [[String]] {
        cells.map { $0.rendered(null: settings.nullText).split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
    }

    /// The text of the next record.
    mutating func record(_ cells: [Cell]) -> String {
        count += 1
        fit(cells)
        let values = lines(cells)
        let bar = unicode ? "│" : "|"
        var out = header() + "\n"
        for (index, name) in columns.enumerated() {
            let label = name + String(repeating: " ", count: labelWidth - DisplayWidth.of(name))
            for (line, text) in values[index].enumerated() {
                let shownLabel = line == 0 ? TerminalStyle.bold.apply(label, if: settings.colour) : String(repeating: " ", count: labelWidth)
                let shownText = cells[index] == .null ? TerminalStyle.dim.apply(text, if: settings.colour) : text
                out += shownLabel + " " + bar + (text.isEmpty ? "" : " " + shownText) + "\n"
            }
        }
        return out
    }

    /// `-[ RECORD 3 ]-----+------`: dashes to the bar, a cross at it, dashes over the values
    /// (no wider than the terminal); psql leaves the cross out when the title is wider.
    private func header() -> String {
        let dash = unicode ? "─" : "-"
        let title = dash + "[ RECORD \(count) ]"
        let titleWidth = DisplayWidth.of(title)
        var valueDashes = valueWidth + 1
        if let terminal = settings.terminalWidth { valueDashes = max(1, min(valueDashes, terminal - labelWidth - 2)) }
        guard titleWidth <= labelWidth + 1 else {
            let total = labelWidth + 2 + valueDashes
            return title + String(repeating: dash, count: max(0, total - titleWidth))
        }
        return title + String(repeating: dash, count: labelWidth + 1 - titleWidth) + (unicode ? "┼" : "+")
            + String(repeating: dash, count: valueDashes)
    }
}
