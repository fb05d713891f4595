import Foundation
import GraphStore

/// Writes results in the current output mode to a text destination.
///
/// Nothing is written before the first row or the end: a command that fails before it has
/// a row to show leaves no trace on standard output (no header, no `[`), so a script's
/// output stays parseable. Rows stream: csv, tsv, list, html, json, jsonl and line write
/// each row as it arrives; the aligned modes (table, box, markdown) measure the first
/// `measuredRows` rows, then stream (see ``AlignedTable``), so a million rows never sit in
/// memory at once. The json and jsonl modes hand their row objects to a run's one JSON
/// document instead, when there is one (`--json-document`, ``JSONDocument``).
///
/// ```swift
/// var settings = OutputSettings()
/// settings.mode = .json
/// let writer = ResultWriter(settings: settings) { print($0, terminator: "") }
/// writer.begin(columns: ["title", "price"])
/// writer.row([.text("Dune"), .value(.double(9.5))])
/// writer.end()                                     // [\n{"title":"Dune","price":9.5}\n]
/// ```
public final class ResultWriter: ResultSink {
    private let settings: OutputSettings
    private let write: (String) -> Void
    private let isInterrupted: () -> Bool
    private let isPaged: (_ lines: Int) -> Bool
    private let document: JSONRowDestination?
    private var columns: [String] = []
    /// The column names as JSON strings, followed by `:` (made once, written on every row).
    private var jsonKeys: [String] = []
    private var started = false
    private var table: AlignedTable?
    private var labelWidth = 0
    /// The number of rows written so far.
    public private(set) var rowCount = 0
    /// How many rows the aligned modes measure before they start writing.
    static let measuredRows = 500

    /// Whether values were cut, or columns left out, to fit the terminal's width (a shell
    /// says so once).
    public var cutToFit: Bool { table?.cutToFit ?? false }

    /// Creates a writer that hands each piece of text to `write`, and drops the rest of a
    /// result once `isInterrupted` says so (a shell passes its Ctrl-C check).
    public convenience init(settings: OutputSettings, isInterrupted: @escaping () -> Bool = { false }, write: @escaping (String) -> Void) {
        self.init(settings: settings, isInterrupted: isInterrupted, isPaged: { _ in false }, document: nil, write: write)
    }

    /// The same, for a shell: `isPaged` says whether a result of so many more lines goes
    /// to a pager, which scrolls sideways (tables are then not fitted to the terminal);
    /// `document` takes the json and jsonl modes' rows.
    init(
        settings: OutputSettings, isInterrupted: @escaping () -> Bool, isPaged: @escaping (_ lines: Int) -> Bool, document: JSONRowDestination?,
        write: @escaping (String) -> Void
    ) {
        self.settings = settings
        self.isInterrupted = isInterrupted
        self.isPaged = isPaged
        self.document = document
        self.write = write
    }

    public func begin(columns: [String]) {
        self.columns = columns
        jsonKeys = columns.map { JSONText.string($0) + ":" }
        started = false
        table = nil
        rowCount = 0
        labelWidth = columns.map(DisplayWidth.of).max() ?? 0
    }

    public func row(_ cells: [Cell]) {
        // After Ctrl-C the rest of the result is dropped; the command then reports the interruption.
        if isInterrupted() { return }
        start()
        // A row with fewer cells than columns is padded with NULLs; extra cells are dropped.
        var cells = cells.count == columns.count ? cells : (0..<columns.count).map { $0 < cells.count ? cells[$0] : .null }
        // Dates print as ISO 8601 in the zone `.tz` sets, in every mode, with every digit the
        // stored value has; bytes print whole (0x hex) in every mode but the aligned ones a
        // person reads, which show their size and first bytes.
        for (index, cell) in cells.enumerated() {
            guard case .value(let value) = cell else { continue }
            switch value {
            case .date(let date): cells[index] = .text(ISO8601DateText.string(from: date, in: settings.timeZone))
            case .data(let data) where settings.mode.showsBytesWhole: cells[index] = .text(SeedValueText.hex(data))
            default: continue
            }
        }
        // A decoded Transformable value: JSON in the JSON modes, JSON text elsewhere, its
        // dates in the `.tz` zone and its bytes as the mode shows bytes.
        for (index, cell) in cells.enumerated() {
            guard case .transformed(let value) = cell else { continue }
            let zone = settings.timeZone
            cells[index] = settings.mode == .json || settings.mode == .jsonl
                ? .placeholder(text: "", json: TransformedValueText.json(value, timeZone: zone))
                : .text(TransformedValueText.text(value, wholeBytes: settings.mode.showsBytesWhole, timeZone: zone))
        }
        defer { rowCount += 1 }
        switch settings.mode {
        case .csv: write(csvRow(cells))
        case .tsv: write(cells.map { FieldText.tsv(text($0)) }.joined(separator: "\t") + "\n")
        case .list: write(cells.map(text).joined(separator: columnSeparator) + rowSeparator)
        case .html: write(htmlRow(cells.map(text), cell: "TD"))
        case .json where document != nil, .jsonl where document != nil: document?.row(jsonObject(cells))
        case .json: write((rowCount == 0 ? "\n" : ",\n") + jsonObject(cells))
        case .jsonl: write(jsonObject(cells) + "\n")
        case .line: writeLineRecord(cells)
        case .table, .box, .markdown: table?.add(cells)
        }
    }

    /// Ends the result: what a result with no rows shows (a header, `[]`), and the closing
    /// border or bracket. A command that failed does not call it.
    public func end() {
        start()
        switch settings.mode {
        case .json where document != nil, .jsonl where document != nil: document?.endRows()
        case .json: write(rowCount == 0 ? "]\n" : "\n]\n")
        case .table, .box, .markdown: table?.finish()
        default: break
        }
    }

    /// Writes what comes before the rows, once.
    private func start() {
        guard !started else { return }
        started = true
        switch settings.mode {
        case .csv where settings.headers:
            write(columns.map { FieldText.csv($0, separator: columnSeparator) }.joined(separator: columnSeparator) + rowSeparator)
        case .tsv where settings.headers: write(columns.map(FieldText.tsv).joined(separator: "\t") + "\n")
        case .list where settings.headers: write(columns.joined(separator: columnSeparator) + rowSeparator)
        case .html where settings.headers: write(htmlRow(columns, cell: "TH"))
        case .json where document != nil, .jsonl where document != nil: document?.beginRows()
        case .json: write("[")
        case .table, .box, .markdown: table = AlignedTable(columns: columns, settings: settings, isPaged: isPaged, write: write)
        default: break
        }
    }

    // MARK: - Separated modes

    private var columnSeparator: String { settings.columnSeparator ?? (settings.mode == .csv ? "," : "|") }
    private var rowSeparator: String { settings.rowSeparator ?? "\n" }

    /// sqlite3's html row: `<TR><TD>a</TD>` and each further cell on a line of its own.
    private func htmlRow(_ texts: [String], cell: String) -> String {
        "<TR>" + texts.map { "<\(cell)>\(FieldText.html($0))</\(cell)>\n" }.joined() + "</TR>\n"
    }

    // MARK: - Line mode

    private func writeLineRecord(_ cells: [Cell]) {
        if rowCount > 0 { write("\n") }
        var out = ""
        for (name, cell) in zip(columns, cells) where cell != .absent {
            let label = String(repeating: " ", count: max(0, labelWidth - DisplayWidth.of(name))) + name
            var value = text(cell)
            // Continuation lines of a multi-line value line up under its first line.
            if value.contains("\n") {
                value = value.replacingOccurrences(of: "\n", with: "\n" + String(repeating: " ", count: labelWidth + 3))
            }
            if case .null = cell { value = TerminalStyle.dim.apply(value, if: settings.colour) }
            out += TerminalStyle.bold.apply(label, if: settings.colour) + " = " + value + "\n"
        }
        write(out)
    }

    // MARK: - Text helpers

    private func text(_ cell: Cell) -> String { cell.rendered(null: settings.nullText) }

    /// A row as one JSON object; a cell absent for this row is left out. Written into one
    /// string, not joined from a string per cell.
    private func jsonObject(_ cells: [Cell]) -> String {
        var out = "{"
        var first = true
        for (key, cell) in zip(jsonKeys, cells) where cell != .absent {
            if !first { out += "," }
            first = false
            out += key
            out += JSONText.value(cell)
        }
        return out + "}"
    }

    /// A row in csv mode, written into one string.
    private func csvRow(_ cells: [Cell]) -> String {
        let separator = columnSeparator
        var out = ""
        for (index, cell) in cells.enumerated() {
            if index > 0 { out += separator }
            out += FieldText.csv(text(cell), separator: separator)
        }
        return out + rowSeparator
    }
}
