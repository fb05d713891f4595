/// How results are printed (`.mode`).
public enum OutputMode: String, Sendable, CaseIterable {
    /// Aligned columns between `+---+` borders (the default).
    case table
    /// Aligned columns between box-drawing lines.
    case box
    /// Comma-separated values, quoted where needed (RFC 4180).
    case csv
    /// Tab-separated values; tabs, newlines and backslashes escaped.
    case tsv
    /// One JSON array of objects; `[]` when there are no rows.
    case json
    /// One JSON object per line.
    case jsonl
    /// One `column = value` line per value, a blank line between rows (sqlite3's line mode).
    case line
    /// Values separated by `|` (or `.separator`), as they are (sqlite3's list mode).
    case list
    /// A GitHub-flavoured Markdown table.
    case markdown
    /// HTML table rows, `<TR><TD>…</TD></TR>` (sqlite3's html mode).
    case html

    /// What `.help .mode` and the manual say about the mode.
    public var summary: String {
        switch self {
        case .table: "aligned columns with +---+ borders, fitted to the terminal"
        case .box: "aligned columns with box-drawing borders, fitted to the terminal"
        case .csv: "comma-separated values (RFC 4180 quoting)"
        case .tsv: "tab-separated values (\\t, \\n, \\\\ escaped)"
        case .json: "a JSON array of objects, [] when empty; numbers typed, dates ISO 8601, bytes 0x hex"
        case .jsonl: "one JSON object per line"
        case .line: "one 'column = value' line per value, rows separated by a blank line"
        case .list: "values separated by | (or .separator), unquoted, as sqlite3's list mode"
        case .markdown: "a Markdown table"
        case .html: "HTML table rows (<TR><TD>), as sqlite3's html mode"
        }
    }

    /// Whether Binary and Transformable values print whole (`0x` and hex, what `import` and
    /// `set` read): in every mode a program reads. Only table and box, which a person reads,
    /// show a value's size and first bytes.
    var showsBytesWhole: Bool { self != .table && self != .box }

    /// Whether the mode pads columns to a common width.
    var isAligned: Bool { self == .table || self == .box || self == .markdown }
}
