import Foundation
import GraphStore

/// Writes results in the current output mode to a text destination.
///
/// Aligned modes (table, box, markdown) measure the first rows they receive and then
/// stream the rest with those widths, so a million rows never sit in memory at once.
public final class ResultWriter: ResultSink {
    private let settings: OutputSettings
    private let write: (String) -> Void
    private var columns: [String] = []
    private var pending: [[String]] = []
    private var widths: [Int]?
    private var rowCount = 0
    private static let measuredRows = 500

    /// Creates a writer that hands each piece of text to `write`.
    public init(settings: OutputSettings, write: @escaping (String) -> Void) {
        self.settings = settings
        self.write = write
    }

    public func begin(columns: [String]) {
        self.columns = columns
        pending = []
        widths = nil
        rowCount = 0
        switch settings.mode {
        case .csv where settings.headers: write(columns.map(csvField).joined(separator: ",") + "\n")
        case .tsv where settings.headers: write(columns.map(tsvField).joined(separator: "\t") + "\n")
        case .json: write("[")
        default: break
        }
    }

    public func row(_ cells: [Cell]) {
        defer { rowCount += 1 }
        switch settings.mode {
        case .csv: write(cells.map { csvField($0.rendered(null: settings.nullText)) }.joined(separator: ",") + "\n")
        case .tsv: write(cells.map { tsvField($0.rendered(null: settings.nullText)) }.joined(separator: "\t") + "\n")
        case .json: write((rowCount == 0 ? "\n" : ",\n") + jsonObject(cells))
        case .jsonl: write(jsonObject(cells) + "\n")
        case .line: writeLineRecord(cells)
        case .table, .box, .markdown:
            let texts = cells.map { clip(oneLine($0.rendered(null: settings.nullText))) }
            if let widths {
                writeAligned(texts, widths: widths)
            } else {
                pending.append(texts)
                if pending.count >= ResultWriter.measuredRows { flushPending() }
            }
        }
    }

    public func end() {
        switch settings.mode {
        case .json: write(rowCount == 0 ? "]\n" : "\n]\n")
        case .table, .box, .markdown:
            if widths == nil { flushPending() }
            if let widths, settings.mode != .markdown { write(border(widths, bottom: true)) }
        default: break
        }
    }

    // MARK: - Aligned modes

    private func flushPending() {
        var widths = columns.map { settings.headers ? width($0) : 0 }
        for row in pending {
            for (i, text) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], width(text)) }
        }
        widths = widths.map { max($0, 1) }
        self.widths = widths
        if settings.mode != .markdown { write(border(widths, bottom: false, top: true)) }
        if settings.headers {
            writeAligned(columns.map(clip), widths: widths)
            write(separator(widths))
        }
        for row in pending { writeAligned(row, widths: widths) }
        pending = []
    }

    private func writeAligned(_ texts: [String], widths: [Int]) {
        let cells = zip(texts, widths).map { text, w in pad(fit(text, w), w) }
        switch settings.mode {
        case .box: write("│ " + cells.joined(separator: " │ ") + " │\n")
        case .markdown: write("| " + cells.joined(separator: " | ") + " |\n")
        default: write("| " + cells.joined(separator: " | ") + " |\n")
        }
    }

    private func border(_ widths: [Int], bottom: Bool, top: Bool = false) -> String {
        let bars = widths.map { String(repeating: settings.mode == .box ? "─" : "-", count: $0 + 2) }
        guard settings.mode == .box else { return "+" + bars.joined(separator: "+") + "+\n" }
        return top ? "┌" + bars.joined(separator: "┬") + "┐\n" : "└" + bars.joined(separator: "┴") + "┘\n"
    }

    private func separator(_ widths: [Int]) -> String {
        switch settings.mode {
        case .box: "├" + widths.map { String(repeating: "─", count: $0 + 2) }.joined(separator: "┼") + "┤\n"
        case .markdown: "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|\n"
        default: "+" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "+") + "+\n"
        }
    }

    private func writeLineRecord(_ cells: [Cell]) {
        let labelWidth = columns.map(width).max() ?? 0
        if rowCount > 0 { write("\n") }
        for (name, cell) in zip(columns, cells) {
            write(pad(name, labelWidth) + " = " + cell.rendered(null: settings.nullText) + "\n")
        }
    }

    // MARK: - Text helpers

    private func width(_ text: String) -> Int { text.count }

    private func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - self.width(text)))
    }

    private func fit(_ text: String, _ width: Int) -> String {
        self.width(text) <= width ? text : String(text.prefix(max(0, width - 1))) + "…"
    }

    private func clip(_ text: String) -> String {
        settings.maxColumnWidth > 0 ? fit(text, settings.maxColumnWidth) : text
    }

    private func oneLine(_ text: String) -> String {
        text.contains(where: \.isNewline) ? text.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r") : text
    }

    private func csvField(_ text: String) -> String {
        text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }

    private func tsvField(_ text: String) -> String {
        text.replacingOccurrences(of: "\t", with: "\\t").replacingOccurrences(of: "\n", with: "\\n")
    }

    private func jsonObject(_ cells: [Cell]) -> String {
        "{" + zip(columns, cells).map { JSONText.string($0) + ":" + JSONText.value($1) }.joined(separator: ",") + "}"
    }
}

/// JSON text for cells: numbers and booleans stay typed, everything else is a string.
enum JSONText {
    static func value(_ cell: Cell) -> String {
        switch cell {
        case .null: return "null"
        case .text(let s): return string(s)
        case .value(let v):
            switch v {
            case .integer(let i): return String(i)
            case .double(let d): return d.isFinite ? AttributeValue.format(d) : "null"
            case .decimal(let d): return "\(d)"
            case .bool(let b): return b ? "true" : "false"
            default: return string(v.description)
            }
        }
    }

    static func string(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
