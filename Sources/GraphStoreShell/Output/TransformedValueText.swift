import Foundation
import GraphStore

/// How a decoded Transformable value is written: as JSON, spaced for reading in the text
/// modes (`["fiction", "classic"]`, `{"pages": 12}`) and compact in the JSON modes, where it
/// is a JSON value of the row's object. Strings, URLs and UUIDs are JSON strings; dates ISO
/// 8601 strings in the `.tz` zone; data a `0x` hex string (in table and box its size and
/// first bytes); null `null`; a set an array; a dictionary key that is not a string its text.
/// A set's members and a dictionary's keys are written in sorted order, so the same value
/// always reads the same.
enum TransformedValueText {
    /// The value as JSON text for the text modes.
    static func text(_ value: PropertyListValue, wholeBytes: Bool, timeZone: TimeZone) -> String {
        write(value, style: Style(spaced: true, wholeBytes: wholeBytes, timeZone: timeZone))
    }

    /// The value as a JSON value.
    static func json(_ value: PropertyListValue, timeZone: TimeZone) -> String {
        write(value, style: Style(spaced: false, wholeBytes: true, timeZone: timeZone))
    }

    private struct Style {
        var spaced: Bool
        var wholeBytes: Bool
        var timeZone: TimeZone
        var comma: String { spaced ? ", " : "," }
        var colon: String { spaced ? ": " : ":" }
    }

    private static func write(_ value: PropertyListValue, style: Style) -> String {
        switch value {
        case .string(let s): return JSONText.string(s)
        case .integer(let v): return String(v)
        case .double(let v): return v.isFinite ? AttributeValue.format(v) : JSONText.string(AttributeValue.format(v))
        case .bool(let v): return v ? "true" : "false"
        case .decimal(let v): return v.isNaN ? JSONText.string("nan") : "\(v)"
        case .date(let d): return JSONText.string(ISO8601DateText.string(from: d, in: style.timeZone))
        case .data(let d): return JSONText.string(style.wholeBytes ? SeedValueText.hex(d) : AttributeValue.dataSummary(d))
        case .url(let u): return JSONText.string(u.absoluteString)
        case .uuid(let u): return JSONText.string(u.uuidString)
        case .null: return "null"
        case .array(let items): return "[" + items.map { write($0, style: style) }.joined(separator: style.comma) + "]"
        case .set(let items): return "[" + items.map { write($0, style: style) }.sorted().joined(separator: style.comma) + "]"
        case .dictionary(let entries):
            let pairs = entries.map { (key: keyText($0.key, style: style), value: write($0.value, style: style)) }.sorted { $0.key < $1.key }
            return "{" + pairs.map { $0.key + style.colon + $0.value }.joined(separator: style.comma) + "}"
        }
    }

    /// A dictionary key as a JSON string: a string itself, anything else its JSON text.
    private static func keyText(_ key: PropertyListValue, style: Style) -> String {
        if case .string(let s) = key { return JSONText.string(s) }
        let text = write(key, style: style)
        return text.hasPrefix("\"") ? text : JSONText.string(text)
    }
}
