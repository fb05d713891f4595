import Foundation
import GraphStore

/// JSON text for cells: numbers and booleans stay typed, dates are ISO 8601 strings, data
/// is a `0x` hex string (what `import` reads), everything else a string. Infinities, which a
/// JSON number cannot hold, are the strings `"inf"` and `"-inf"` (what `import` reads), and
/// NaN is `"nan"`: never `null`, which would say there is no value.
enum JSONText {
    static func value(_ cell: Cell) -> String {
        switch cell {
        case .null, .absent: return "null"
        case .text(let s): return string(s)
        case .placeholder(_, let json): return json
        case .transformed(let value): return TransformedValueText.json(value, timeZone: .gmt)
        case .objectID(let id): return string(id.description)
        case .objectURI(let id): return string(id.uriRepresentation)
        case .value(let v):
            switch v {
            case .integer(let i): return String(i)
            case .double(let d): return d.isFinite ? AttributeValue.format(d) : string(AttributeValue.format(d))
            case .decimal(let d): return d.isNaN ? string("nan") : "\(d)"
            case .bool(let b): return b ? "true" : "false"
            case .data(let data): return string(SeedValueText.hex(data))
            default: return string(v.description)
            }
        }
    }

    /// A JSON string, escaped as ``OutputBytes/append(jsonString:)`` escapes it.
    static func string(_ s: String) -> String {
        var bytes = OutputBytes()
        bytes.append(jsonString: s)
        return bytes.take()
    }
}
