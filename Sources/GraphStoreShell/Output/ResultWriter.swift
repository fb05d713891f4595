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
/// Rows are written as bytes into one reused buffer (``OutputBytes``), which is handed to
/// `write` whenever it holds about 16 KiB, at ``end()``, and at ``flush()``: a command
/// that stops part-way flushes the rows it has written.
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
    /// The column names as JSON strings, followed by `:`, in UTF-8 (made once, written on
    /// every row).
    private var jsonKeys: [[UInt8]] = []
    /// The text written and not yet handed to `write`.
    private var pending = OutputBytes(reserving: true)
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
        jsonKeys = columns.map { Array((JSONText.string($0) + ":").utf8) }
        started = false
        table = nil
        rowCount = 0
        labelWidth = columns.map(DisplayWidth.of).max() ?? 0
    }

    public func row(_ cells: [Cell]) {
        // After Ctrl-C the rest of the result is dropped; the command then reports the interruption.
        if isInterrupted() { return }
        start()
        defer {
            rowCount += 1
            if pending.isFull { flush() }
        }
        // A row with fewer cells than columns is padded with NULLs; extra cells are dropped.
        let cells = cells.count == columns.count ? cells : (0..<columns.count).map { $0 < cells.count ? cells[$0] : .null }
        switch settings.mode {
        case .csv: writing { writeCSVRow(cells, into: &$0) }
        case .json where document == nil:
            writing {
                $0.append(rowCount == 0 ? "\n" : ",\n")
                writeJSONObject(cells, into: &$0)
            }
        case .jsonl where document == nil:
            writing {
                writeJSONObject(cells, into: &$0)
                $0.append(byte: 0x0A)
            }
        case .json, .jsonl: document?.row(jsonObject(cells))
        case .tsv: put(cells.map { FieldText.tsv(text(shown($0))) }.joined(separator: "\t") + "\n")
        case .list: put(cells.map { text(shown($0)) }.joined(separator: columnSeparator) + rowSeparator)
        case .html: put(htmlRow(cells.map { text(shown($0)) }, cell: "TD"))
        case .line: writeLineRecord(cells.map(shown))
        case .table, .box, .markdown: table?.add(cells.map(shown))
        }
    }

    /// Lends the buffer to `body` as a local value: a row makes dozens of appends, and each
    /// on the writer's own property would be an exclusivity check at run time.
    private func writing(_ body: (inout OutputBytes) -> Void) {
        var bytes = OutputBytes()
        swap(&bytes, &pending)
        body(&bytes)
        swap(&bytes, &pending)
    }

    /// A cell as the mode shows it. Dates print as ISO 8601 in the zone `.tz` sets, in every
    /// mode, with every digit the stored value has; bytes print whole (0x hex) in every mode
    /// but the aligned ones a person reads, which show their size and first bytes. A decoded
    /// Transformable value is JSON in the JSON modes, JSON text elsewhere, its dates in the
    /// `.tz` zone and its bytes as the mode shows bytes.
    private func shown(_ cell: Cell) -> Cell {
        switch cell {
        case .value(.date(let date)): return .text(ISO8601DateText.string(from: date, in: settings.timeZone))
        case .value(.data(let data)) where settings.mode.showsBytesWhole: return .text(SeedValueText.hex(data))
        case .transformed(let value):
            let zone = settings.timeZone
            return settings.mode == .json || settings.mode == .jsonl
                ? .placeholder(text: "", json: TransformedValueText.json(value, timeZone: zone))
                : .text(TransformedValueText.text(value, wholeBytes: settings.mode.showsBytesWhole, timeZone: zone))
        default: return cell
        }
    }

    /// Hands the rows written so far to `write`. A command that stops part-way (an error,
    /// Ctrl-C) calls it, so that the rows before the stop are shown.
    public func flush() {
        guard !pending.isEmpty else { return }
        write(pending.take())
    }

    /// Adds text to what is written.
    private func put(_ text: String) {
        pending.append(text)
        if pending.isFull { flush() }
    }

    /// Ends the result: what a result with no rows shows (a header, `[]`), and the closing
    /// border or bracket. A command that failed does not call it.
    public func end() {
        start()
        switch settings.mode {
        case .json where document != nil, .jsonl where document != nil: document?.endRows()
        case .json: put(rowCount == 0 ? "]\n" : "\n]\n")
        case .table, .box, .markdown: table?.finish()
        default: break
        }
        flush()
    }

    /// Writes what comes before the rows, once.
    private func start() {
        guard !started else { return }
        started = true
        switch settings.mode {
        case .csv where settings.headers:
            put(columns.map { FieldText.csv($0, separator: columnSeparator) }.joined(separator: columnSeparator) + rowSeparator)
        case .tsv where settings.headers: put(columns.map(FieldText.tsv).joined(separator: "\t") + "\n")
        case .list where settings.headers: put(columns.joined(separator: columnSeparator) + rowSeparator)
        case .html where settings.headers: put(htmlRow(columns, cell: "TH"))
        case .json where document != nil, .jsonl where document != nil: document?.beginRows()
        case .json: put("[")
        case .table, .box, .markdown: table = AlignedTable(columns: columns, settings: settings, isPaged: isPaged, write: { [unowned self] in put($0) })
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
        if rowCount > 0 { put("\n") }
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
        put(out)
    }

    // MARK: - Text helpers

    private func text(_ cell: Cell) -> String { cell.rendered(null: settings.nullText) }

    /// A row as one JSON object, for a JSON document (written as ``writeJSONObject(_:into:)``
    /// writes it, into a buffer of its own).
    private func jsonObject(_ cells: [Cell]) -> String {
        var bytes = OutputBytes()
        writeJSONObject(cells, into: &bytes)
        return bytes.take()
    }

    /// A row as one JSON object, written into the buffer; a cell absent for this row is left
    /// out. Whole numbers and text are written from their values, without a string each.
    private func writeJSONObject(_ cells: [Cell], into bytes: inout OutputBytes) {
        bytes.append(byte: 0x7B)
        var first = true
        for (key, cell) in zip(jsonKeys, cells) where cell != .absent {
            if !first { bytes.append(byte: 0x2C) }
            first = false
            bytes.append(utf8: key)
            // The usual cells first, as they are; dates, bytes and decoded values as shown.
            switch cell {
            case .value(.integer(let i)): bytes.append(integer: i)
            case .text(let s), .value(.string(let s)): bytes.append(jsonString: s)
            case .objectID(let id): bytes.append(jsonObjectID: id, uri: false)
            case .objectURI(let id): bytes.append(jsonObjectID: id, uri: true)
            case .null, .absent: bytes.append("null")
            case .value(.double): bytes.append(JSONText.value(cell))
            case .value(.date(let date)): bytes.append(jsonDate: date, in: settings.timeZone)
            default:
                switch shown(cell) {
                case .text(let s): bytes.append(jsonString: s)
                case let other: bytes.append(JSONText.value(other))
                }
            }
        }
        bytes.append(byte: 0x7D)
    }

    /// A row in csv mode, written into the buffer.
    private func writeCSVRow(_ cells: [Cell], into bytes: inout OutputBytes) {
        let separator = columnSeparator
        // A one-byte separator (the usual comma, the usual newline) is added as a byte: an
        // array or string of one byte costs several times more to add, six times a row.
        let separatorByte = separator.utf8.count == 1 ? separator.utf8.first : nil
        for (index, cell) in cells.enumerated() {
            if index > 0 {
                if let separatorByte { bytes.append(byte: separatorByte) } else { bytes.append(separator) }
            }
            // The usual cells first, as they are; dates, bytes and decoded values as shown.
            switch cell {
            case .value(.integer(let i)): bytes.append(csvInteger: i, separator: separator)
            case .text(let s), .value(.string(let s)): bytes.append(csvField: s, separator: separator)
            case .objectID(let id): bytes.append(csvObjectID: id, uri: false, separator: separator)
            case .objectURI(let id): bytes.append(csvObjectID: id, uri: true, separator: separator)
            case .value(.double(let d)): bytes.append(csvField: AttributeValue.format(d), separator: separator)
            case .value(.date(let date)): bytes.append(csvDate: date, in: settings.timeZone, separator: separator)
            default: bytes.append(csvField: text(shown(cell)), separator: separator)
            }
        }
        if settings.rowSeparator == nil { bytes.append(byte: 0x0A) } else { bytes.append(rowSeparator) }
    }
}
