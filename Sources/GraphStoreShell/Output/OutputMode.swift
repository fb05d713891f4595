/// How results are printed (`.mode`).
public enum OutputMode: String, Sendable, CaseIterable {
    case table, box, csv, tsv, json, jsonl, line, markdown
}

/// Output settings shared by every result writer.
public struct OutputSettings: Sendable {
    /// The mode.
    public var mode: OutputMode = .table
    /// Whether a header row is printed (table, box, csv, tsv, markdown).
    public var headers = true
    /// The text shown for NULL in text modes.
    public var nullText = ""
    /// The widest a column may be before values are cut with an ellipsis (0: no limit).
    public var maxColumnWidth = 0
    /// Whether commands echo the SQL they run, with its bound values (`.sql on`).
    public var echoSQL = false

    /// The default settings.
    public init() {}
}
