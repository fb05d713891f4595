import Foundation

/// Output settings shared by every result writer (`.mode`, `.headers`, `.nullvalue`,
/// `.separator`, `.width`, `.expanded`, `.tz`, `.transformed`).
public struct OutputSettings: Sendable {
    /// The mode.
    public var mode: OutputMode = .table
    /// Whether a header row is printed (table, box, csv, tsv, list, html, markdown).
    public var headers = true
    /// The text shown for NULL in text modes (JSON always writes `null`).
    public var nullText = ""
    /// The widest a column may be before values are cut with an ellipsis (0: no limit).
    public var maxColumnWidth = 0
    /// The width of the terminal the result goes to; table and box results are fitted to
    /// it. Nil when the output is not a terminal: then nothing is cut.
    public var terminalWidth: Int?
    /// Whether to use colour (only on a terminal, and never when `NO_COLOR` is set).
    public var colour = false
    /// Whether commands echo the SQL they run, with its bound values (`.sql on`).
    public var echoSQL = false
    /// What separates the values of a row in list and csv modes (`.separator`, `-separator`);
    /// nil for the mode's own (`|` for list, `,` for csv). Choosing a mode resets it, as in sqlite3.
    public var columnSeparator: String?
    /// What ends a row in list and csv modes (`.separator COL ROW`, `-newline`); nil for `\n`.
    public var rowSeparator: String?
    /// `.width N …`: the width of each column in table, box and markdown modes, in order:
    /// N > 0 is N columns wide, N < 0 is -N wide and right-aligned, 0 (or a column past the
    /// list) is as wide as its values.
    public var columnWidths: [Int] = []
    /// psql's expanded display (`\x`): one field per line in table and box modes. Off
    /// here; `graphstore` makes it `auto` when its standard output is a terminal.
    public var expanded = ExpandedDisplay.off
    /// `.tz`: the zone dates are printed in (ISO 8601), and the zone of a date typed
    /// without one in a predicate (`date > "2010-01-01"`). UTC unless set.
    public var timeZone: TimeZone = .gmt
    /// `.transformed`: whether a Transformable value holding a keyed archive of Foundation's
    /// plist classes is shown decoded (JSON text, JSON in the JSON modes) or as its bytes.
    public var transformedValues = true

    /// The default settings.
    public init() {}

    /// Chooses a mode, putting the separators back to the mode's own (sqlite3's `.mode`
    /// does the same).
    public mutating func select(_ mode: OutputMode) {
        self.mode = mode
        columnSeparator = nil
        rowSeparator = nil
    }
}

/// psql's `\x`: whether table and box results are shown one field per line, with a header
/// line per record, instead of as a table.
public enum ExpandedDisplay: String, Sendable, CaseIterable {
    /// Always as a table.
    case off
    /// Always one field per line.
    case on
    /// One field per line when the rows a table measures (the first 500) do not fit the
    /// terminal; a table elsewhere, and where they fit.
    case auto
}
