/// Output settings shared by every result writer (`.mode`, `.headers`, `.nullvalue`).
public struct OutputSettings: Sendable {
    /// The mode.
    public var mode: OutputMode = .table
    /// Whether a header row is printed (table, box, csv, tsv, markdown).
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

    /// The default settings.
    public init() {}
}
