/// The aligned modes (table, box, markdown), and psql's expanded display of them.
///
/// The first `ResultWriter.measuredRows` rows are measured, then written with those widths,
/// and the rest streamed, so that a million rows never sit in memory. A later value wider
/// than its column widens the column from that row on, a border line marking where
/// (markdown has none), so every row lies within the borders drawn around it whatever the
/// number of rows. On a terminal the table is fitted to its width: the widest columns are
/// cut, their values ending in `…`; when not even that fits, the last columns are left out
/// and a `…` column stands for them. A table that goes to a pager is not fitted: the pager
/// (`less -S`) scrolls sideways. `.width` fixes columns' widths, a longer value wrapping
/// over several lines as sqlite3 wraps it; `\x` (or `auto`, when the measured rows are
/// wider than the terminal) shows each row as a record instead. Nothing is cut but to fit
/// a terminal (or to `maxColumnWidth`, which a program embedding the shell sets).
///
/// A value wider than ``widestAlignedValue`` columns does not set its column's width: its
/// own row runs past the right border, and the other rows stay as wide as their values.
/// Padding every row to one megabyte-long value would make a table of n rows n megabytes.
final class AlignedTable {
    /// The widest value (in display columns) that widens its column.
    static let widestAlignedValue = 1_024

    private let settings: OutputSettings
    private let columns: [String]
    private let write: (String) -> Void
    /// Whether a result of so many more lines goes to a pager (see ``ResultWriter``).
    private let isPaged: (_ lines: Int) -> Bool
    /// Whether the table is fitted to the terminal: not when there is none, nor when it goes
    /// to a pager, decided once with the layout.
    private var fitsTerminal = true
    /// The rows measured before the layout is chosen, as given and as rendered.
    private var pending: [(cells: [Cell], rendered: [RenderedCell])] = []
    private var natural: [Int]
    private var layout: ColumnLayout?
    private var records: ExpandedRecords?
    /// Whether a value was cut, or columns left out, to fit the terminal.
    private(set) var cutToFit = false
    /// Columns left out in the last layout.
    var hiddenColumns: Int { layout?.hiddenColumns ?? 0 }

    /// A value ready for an aligned column: on one line, cut to `maxColumnWidth`.
    private struct RenderedCell {
        var text: String
        var width: Int
        var isNull: Bool
    }

    init(columns: [String], settings: OutputSettings, isPaged: @escaping (_ lines: Int) -> Bool = { _ in false }, write: @escaping (String) -> Void) {
        self.columns = columns
        self.settings = settings
        self.isPaged = isPaged
        self.write = write
        natural = columns.map { _ in 1 }
    }

    func add(_ cells: [Cell]) {
        if records != nil { return writeRecord(cells) }
        let rendered = cells.map(render)
        guard let layout else {
            pending.append((cells, rendered))
            if pending.count >= ResultWriter.measuredRows { flushPending() }
            return
        }
        widen(for: rendered, from: layout)
        writeRow(rendered)
    }

    func finish() {
        if records != nil { return }
        if layout == nil { flushPending(finishing: true) }
        if let layout, settings.mode != .markdown { write(border(layout, position: .bottom)) }
    }

    // MARK: - Layout

    private var showsHeader: Bool { settings.headers || settings.mode == .markdown }

    /// `.width` for each column: nil where the column takes its values' width.
    private var fixedWidths: [Int?] {
        columns.indices.map { i in
            i < settings.columnWidths.count && settings.columnWidths[i] != 0 ? abs(settings.columnWidths[i]) : nil
        }
    }

    /// The width the table is fitted to, if any.
    private var available: Int? { settings.mode == .markdown || !fitsTerminal ? nil : settings.terminalWidth }

    private func makeLayout() -> ColumnLayout {
        let rightAligned = columns.indices.map { $0 < settings.columnWidths.count && settings.columnWidths[$0] < 0 }
        return ColumnLayout.make(natural: natural, fixed: fixedWidths, rightAligned: rightAligned, available: available)
    }

    /// Chooses the layout from the measured rows and writes them: at the 500th row, or at
    /// the end of a shorter result (`finishing`).
    private func flushPending(finishing: Bool = false) {
        if showsHeader { natural = zip(natural, columns).map { max($0, DisplayWidth.of($1)) } }
        for row in pending {
            for (i, cell) in row.rendered.enumerated() where cell.width <= Self.widestAlignedValue { natural[i] = max(natural[i], cell.width) }
        }
        if expands {
            var records = ExpandedRecords(columns: columns, settings: settings)
            // The measured rows set the width of the records' header lines, as psql's do.
            for row in pending { records.fit(row.cells) }
            self.records = records
            for row in pending { writeRecord(row.cells) }
            pending = []
            return
        }
        // The lines about to be written (each at least one row of the screen): borders,
        // header, the measured rows; if the pager takes them, it gets them whole.
        let lines = pending.count + (showsHeader ? 2 : 0) + (settings.mode == .markdown ? 0 : 1 + (finishing ? 1 : 0))
        fitsTerminal = settings.terminalWidth != nil && !isPaged(lines)
        let layout = makeLayout()
        self.layout = layout
        if settings.mode != .markdown { write(border(layout, position: .top)) }
        if showsHeader {
            writeRow(columns.map { RenderedCell(text: $0, width: DisplayWidth.of($0), isNull: false) }, isHeader: true)
            write(border(layout, position: .middle))
        }
        for row in pending { writeRow(row.rendered) }
        pending = []
    }

    /// Whether the rows are shown as records: `\x on`, or `auto` and the measured rows are
    /// wider than the terminal, whether a pager takes them or not, as psql decides. (psql
    /// keeps a result of one column a table; here that would cut its values, so it too is
    /// shown as records.)
    private var expands: Bool {
        guard settings.mode != .markdown else { return false }
        switch settings.expanded {
        case .off: return false
        case .on: return true
        case .auto:
            guard let terminal = settings.terminalWidth else { return false }
            return natural.reduce(0, +) + ColumnLayout.overhead(columns: columns.count) > terminal
        }
    }

    /// A value wider than its column (one not cut to fit) widens it from this row on.
    private func widen(for row: [RenderedCell], from layout: ColumnLayout) {
        var wider = false
        for (i, cell) in row.enumerated() where cell.width > natural[i] && cell.width <= Self.widestAlignedValue {
            natural[i] = cell.width
            if i < layout.widths.count, !layout.narrowed[i], cell.width > layout.widths[i] { wider = true }
        }
        guard wider else { return }
        let next = makeLayout()
        guard next != layout else { return }
        self.layout = next
        if settings.mode != .markdown { write(border(next, position: .middle)) }
    }

    // MARK: - Writing

    private func render(_ cell: Cell) -> RenderedCell {
        var text = FieldText.oneLine(cell.rendered(null: settings.nullText))
        if settings.mode == .markdown { text = text.replacingOccurrences(of: "|", with: "\\|") }
        var width = DisplayWidth.of(text)
        if settings.maxColumnWidth > 0, width > settings.maxColumnWidth {
            text = FieldText.cut(text, to: settings.maxColumnWidth)
            width = DisplayWidth.of(text)
        }
        return RenderedCell(text: text, width: width, isNull: cell == .null)
    }

    private func writeRow(_ cells: [RenderedCell], isHeader: Bool = false) {
        guard let layout else { return }
        // A value longer than its `.width` wraps onto further lines, as sqlite3 wraps it;
        // one longer than a column narrowed to fit the terminal is cut.
        var wrapped: [[String]] = []
        for (i, width) in layout.widths.enumerated() where cells[i].width > width && layout.narrowed[i] && !layout.fitted[i] {
            if wrapped.isEmpty { wrapped = Array(repeating: [], count: layout.widths.count) }
            wrapped[i] = FieldText.wrap(cells[i].text, to: width)
        }
        let lineCount = wrapped.map(\.count).max() ?? 1
        for line in 0..<lineCount { writeLine(line, of: cells, wrapped: wrapped, isHeader: isHeader) }
    }

    /// One line of a row: each shown column's text, padded, styled; on the first line the
    /// values, on further ones what wrapped of them (`wrapped`, empty when nothing did).
    private func writeLine(_ line: Int, of cells: [RenderedCell], wrapped: [[String]], isHeader: Bool) {
        guard let layout else { return }
        var parts: [String] = []
        parts.reserveCapacity(layout.widths.count + 1)
        for (i, width) in layout.widths.enumerated() {
            var text = line == 0 ? cells[i].text : ""
            var used = line == 0 ? cells[i].width : 0
            if !wrapped.isEmpty, !wrapped[i].isEmpty {
                text = line < wrapped[i].count ? wrapped[i][line] : ""
                used = DisplayWidth.of(text)
            }
            if used > width, layout.narrowed[i] {
                text = FieldText.cut(text, to: width)
                used = DisplayWidth.of(text)
                if layout.fitted[i] { cutToFit = true }
            }
            let padding = String(repeating: " ", count: max(0, width - used))
            if isHeader, !text.isEmpty {
                text = TerminalStyle.bold.apply(text, if: settings.colour)
            } else if cells[i].isNull, !text.isEmpty {
                text = TerminalStyle.dim.apply(text, if: settings.colour)
            }
            // Left-aligned throughout, numbers included, as sqlite3's table and box modes
            // do, unless `.width -N` asks for the right.
            parts.append(layout.rightAligned[i] ? padding + text : text + padding)
        }
        if layout.hiddenColumns > 0 {
            parts.append("…")
            cutToFit = true
        }
        let bar = settings.mode == .box ? "│" : "|"
        write(bar + " " + parts.joined(separator: " \(bar) ") + " " + bar + "\n")
    }

    private func writeRecord(_ cells: [Cell]) {
        guard var records else { return }
        write(records.record(cells))
        self.records = records
    }

    private enum BorderPosition { case top, middle, bottom }

    private func border(_ layout: ColumnLayout, position: BorderPosition) -> String {
        let widths = layout.widths + (layout.hiddenColumns > 0 ? [1] : [])
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
}
