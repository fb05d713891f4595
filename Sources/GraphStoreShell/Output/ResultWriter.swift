import Foundation
import GraphStore

/// Writes results in the current output mode to a text destination.
///
/// Rows stream: csv, tsv, json, jsonl and line write each row as it arrives. The aligned
/// modes (table, box, markdown) measure the first `measuredRows` rows, then write them and
/// stream the rest with those widths, so a million rows never sit in memory at once (a
/// later, longer value pushes its row out of line rather than lose characters). On a
/// terminal, table and box results are fitted to its width by cutting the widest columns,
/// their values ending in `…`.
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
    private var columns: [String] = []
    private var pending: [[RenderedCell]] = []
    private var layout: ColumnLayout?
    private var labelWidth = 0
    /// The number of rows written so far.
    public private(set) var rowCount = 0
    /// How many rows the aligned modes measure before they start writing.
    static let measuredRows = 500

    /// Creates a writer that hands each piece of text to `write`, and drops the rest of a
    /// result once `isInterrupted` says so (a shell passes its Ctrl-C check).
    public init(settings: OutputSettings, isInterrupted: @escaping () -> Bool = { false }, write: @escaping (String) -> Void) {
        self.settings = settings
        self.isInterrupted = isInterrupted
        self.write = write
    }

    public func begin(columns: [String]) {
        self.columns = columns
        pending = []
        layout = nil
        rowCount = 0
        labelWidth = columns.map(DisplayWidth.of).max() ?? 0
        switch settings.mode {
        case .csv where settings.headers: write(columns.map(csvField).joined(separator: ",") + "\n")
        case .tsv where settings.headers: write(columns.map(tsvField).joined(separator: "\t") + "\n")
        case .json: write("[")
        default: break
        }
    }

    public func row(_ cells: [Cell]) {
        // After Ctrl-C the rest of the result is dropped; the command then reports the interruption.
        if isInterrupted() { return }
        // A row with fewer cells than columns is padded with NULLs; extra cells are dropped.
        let cells = cells.count == columns.count ? cells : (0..<columns.count).map { $0 < cells.count ? cells[$0] : .null }
        defer { rowCount += 1 }
        switch settings.mode {
        case .csv: write(cells.map { csvField(text($0)) }.joined(separator: ",") + "\n")
        case .tsv: write(cells.map { tsvField(text($0)) }.joined(separator: "\t") + "\n")
        case .json: write((rowCount == 0 ? "\n" : ",\n") + jsonObject(cells))
        case .jsonl: write(jsonObject(cells) + "\n")
        case .line: writeLineRecord(cells)
        case .table, .box, .markdown:
            let rendered = cells.map(render)
            if let layout {
                writeAligned(rendered, layout: layout)
            } else {
                pending.append(rendered)
                if pending.count >= ResultWriter.measuredRows { flushPending() }
            }
        }
    }

    public func end() {
        switch settings.mode {
        case .json: write(rowCount == 0 ? "]\n" : "\n]\n")
        case .table, .box, .markdown:
            if layout == nil { flushPending() }
            if let layout, settings.mode != .markdown { write(border(layout.widths, position: .bottom)) }
        default: break
        }
    }

    // MARK: - Aligned modes

    /// A value ready for an aligned column: on one line, cut to `maxColumnWidth`.
    private struct RenderedCell {
        var text: String
        var width: Int
        var isNull: Bool
    }

    private func render(_ cell: Cell) -> RenderedCell {
        var text = oneLine(text(cell))
        if settings.mode == .markdown { text = text.replacingOccurrences(of: "|", with: "\\|") }
        var width = DisplayWidth.of(text)
        if settings.maxColumnWidth > 0, width > settings.maxColumnWidth {
            text = cut(text, to: settings.maxColumnWidth)
            width = DisplayWidth.of(text)
        }
        if case .null = cell { return RenderedCell(text: text, width: width, isNull: true) }
        return RenderedCell(text: text, width: width, isNull: false)
    }

    private var showsHeader: Bool { settings.headers || settings.mode == .markdown }

    private func flushPending() {
        var natural = columns.map { showsHeader ? DisplayWidth.of($0) : 0 }
        for row in pending {
            for (i, cell) in row.enumerated() { natural[i] = max(natural[i], cell.width) }
        }
        natural = natural.map { max($0, 1) }
        var widths = natural
        if let available = settings.terminalWidth, settings.mode != .markdown {
            widths = ColumnLayout.fit(natural: natural, overhead: ColumnLayout.overhead(columns: columns.count), available: available)
        }
        let layout = ColumnLayout(widths: widths, narrowed: zip(widths, natural).map { $0 < $1 })
        self.layout = layout
        if settings.mode != .markdown { write(border(widths, position: .top)) }
        if showsHeader {
            let header = columns.map { name in
                RenderedCell(text: name, width: DisplayWidth.of(name), isNull: false)
            }
            writeAligned(header, layout: layout, isHeader: true)
            write(border(widths, position: .middle))
        }
        for row in pending { writeAligned(row, layout: layout) }
        pending = []
    }

    private func writeAligned(_ cells: [RenderedCell], layout: ColumnLayout, isHeader: Bool = false) {
        var parts: [String] = []
        parts.reserveCapacity(cells.count)
        for (i, cell) in cells.enumerated() {
            let width = layout.widths[i]
            var text = cell.text
            var used = cell.width
            if used > width, layout.narrowed[i] {
                text = cut(text, to: width)
                used = DisplayWidth.of(text)
            }
            let padding = String(repeating: " ", count: max(0, width - used))
            if isHeader {
                text = TerminalStyle.bold.apply(text, if: settings.colour)
            } else if cell.isNull {
                text = TerminalStyle.dim.apply(text, if: settings.colour)
            }
            // Left-aligned throughout, numbers included, as sqlite3's table and box modes do.
            parts.append(text + padding)
        }
        let bar = settings.mode == .box ? "│" : "|"
        write(bar + " " + parts.joined(separator: " \(bar) ") + " " + bar + "\n")
    }

    private enum BorderPosition { case top, middle, bottom }

    private func border(_ widths: [Int], position: BorderPosition) -> String {
        switch settings.mode {
        case .box:
            let bars = widths.map { String(repeating: "─", count: $0 + 2) }
            switch position {
            case .top: return "┌" + bars.joined(separator: "┬") + "┐\n"
            case .middle: return "├" + bars.joined(separator: "┼") + "┤\n"
            case .bottom: return "└" + bars.joined(separator: "┴") + "┘\n"
            }
        case .markdown:
            return "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|\n"
        default:
            return "+" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "+") + "+\n"
        }
    }

    // MARK: - Line mode

    private func writeLineRecord(_ cells: [Cell]) {
        if rowCount > 0 { write("\n") }
        var out = ""
        for (name, cell) in zip(columns, cells) {
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

    /// `text` cut to `width` columns, its last column an ellipsis.
    private func cut(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        return DisplayWidth.prefix(text, fitting: width - 1) + "…"
    }

    private func oneLine(_ text: String) -> String {
        guard text.contains(where: { $0.isNewline || $0 == "\t" }) else { return text }
        return text.replacingOccurrences(of: "\r\n", with: "\\n").replacingOccurrences(of: "\n", with: "\\n")
            .replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\t", with: "\\t")
    }

    private func csvField(_ text: String) -> String {
        let needsQuotes = text.contains { $0 == "," || $0 == "\"" || $0.isNewline } || text.first == " " || text.last == " "
        return needsQuotes ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }

    private func tsvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "\t" || $0 == "\\" || $0.isNewline }) else { return text }
        return text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\t", with: "\\t")
            .replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n")
    }

    private func jsonObject(_ cells: [Cell]) -> String {
        "{" + zip(columns, cells).map { JSONText.string($0) + ":" + JSONText.value($1) }.joined(separator: ",") + "}"
    }
}
