import Foundation
import GraphStore

/// A property-list value (the store's metadata) as one line of text: strings as they are,
/// numbers and booleans plainly, data as hex (cut after 64 bytes), dates in ISO 8601, and
/// arrays and dictionaries in brackets, a dictionary's keys sorted.
///
/// ```swift
/// PropertyListText.of(Data([0xca, 0xfe]))          // "cafe"
/// PropertyListText.of(["b": 2, "a": "x"])          // "{a: x, b: 2}"
/// ```
enum PropertyListText {
    /// Data longer than this is cut, with its size said.
    static let shownBytes = 64

    static func of(_ value: Any) -> String {
        switch value {
        case let text as String: return text
        case let data as Data: return hex(data)
        case let date as Date: return ISO8601DateText.string(from: date)
        case let number as NSNumber: return number.stringValue
        case let array as [Any]: return "[" + array.map(of).joined(separator: ", ") + "]"
        case let dictionary as [String: Any]:
            return "{" + dictionary.keys.sorted().map { "\($0): \(of(dictionary[$0] ?? ""))" }.joined(separator: ", ") + "}"
        default: return "\(value)"
        }
    }

    /// `cafe…` in lower-case hex; past `shownBytes`, cut, with the size.
    static func hex(_ data: Data) -> String {
        let shown = data.prefix(shownBytes).map { String(format: "%02x", $0) }.joined()
        return data.count > shownBytes ? "\(shown)… (\(data.count) bytes)" : shown
    }
}
