import Foundation

/// Attribute values as seed text (CSV cells, JSON strings, update scripts): one spelling per
/// value, read back as the attribute's type, so that a seed round-trips through text.
///
/// ```swift
/// SeedValueText.format(.double(12.5))                        // "12.5"
/// try SeedValueText.parse("2020-01-01", as: published)       // .date(…)
/// ```
public enum SeedValueText {
    /// The text of a value: numbers as written, booleans `true`/`false`, dates ISO 8601 (UTC,
    /// fractional seconds when there are any), UUIDs, URIs, data as `0x` hex.
    public static func format(_ value: AttributeValue) -> String {
        switch value {
        case .integer(let i): return String(i)
        case .double(let d): return AttributeValue.format(d)
        case .decimal(let d): return "\(d)"
        case .bool(let b): return b ? "true" : "false"
        case .string(let s): return s
        case .date(let date):
            let whole = date.timeIntervalSince1970.rounded(.down) == date.timeIntervalSince1970
            return whole ? date.formatted(.iso8601) : date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        case .uuid(let uuid): return uuid.uuidString
        case .uri(let url): return url.absoluteString
        case .data(let data): return "0x" + data.map { String(format: "%02x", $0) }.joined()
        }
    }

    /// A seed field's value for an attribute: nil for no value, the text read as the
    /// attribute's type; a list is refused.
    public static func value(of field: SeedRecord.Field, as attribute: AttributeDescription) throws(SeedTextError) -> AttributeValue? {
        switch field {
        case .null: return nil
        case .text(let text): return try parse(text, as: attribute)
        case .keys: throw SeedTextError(attribute: attribute.name, text: "[…]", expected: "a value (it is an attribute; a list is not a value)")
        }
    }

    /// Reads text as an attribute's type; the error says what was expected.
    public static func parse(_ text: String, as attribute: AttributeDescription) throws(SeedTextError) -> AttributeValue {
        func fail(_ expected: String) -> SeedTextError {
            SeedTextError(attribute: attribute.name, text: text, expected: expected)
        }
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            guard let value = Int64(text.trimmingCharacters(in: .whitespaces)) else { throw fail("a whole number") }
            if let range = attribute.type.integerRange, !range.contains(value) { throw fail("within \(range.lowerBound)…\(range.upperBound)") }
            return .integer(value)
        case .double, .float:
            guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite else { throw fail("a number") }
            return .double(value)
        case .decimal:
            guard !text.isEmpty, let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else { throw fail("a decimal number") }
            return .decimal(value)
        case .string:
            return .string(text)
        case .boolean:
            switch text.lowercased() {
            case "true", "yes", "1": return .bool(true)
            case "false", "no", "0": return .bool(false)
            default: throw fail("true or false")
            }
        case .date:
            if let date = try? Date(text, strategy: .iso8601) { return .date(date) }
            if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return .date(date) }
            if let date = try? Date(text, strategy: Date.ISO8601FormatStyle().year().month().day()) { return .date(date) }
            throw fail("a date (2020-01-01 or 2020-01-01T10:30:00Z)")
        case .uuid:
            guard let uuid = UUID(uuidString: text) else { throw fail("a UUID") }
            return .uuid(uuid)
        case .uri:
            guard let url = URL(string: text), url.scheme != nil else { throw fail("a URI with a scheme") }
            return .uri(url)
        case .binaryData, .transformable:
            guard text.hasPrefix("0x"), text.count % 2 == 0 else { throw fail("hex bytes (0x89504e47)") }
            var data = Data()
            var index = text.index(text.startIndex, offsetBy: 2)
            while index < text.endIndex {
                let next = text.index(index, offsetBy: 2)
                guard let byte = UInt8(text[index..<next], radix: 16) else { throw fail("hex bytes (0x89504e47)") }
                data.append(byte)
                index = next
            }
            return .data(data)
        case .undefined, .objectID, .composite:
            throw fail("a type seeds can hold (\(attribute.type.xcodeName) cannot be written as text)")
        }
    }
}

/// A seed text value that does not fit its attribute.
public struct SeedTextError: Error, CustomStringConvertible {
    /// The attribute.
    public var attribute: String
    /// The text given.
    public var text: String
    /// What the attribute takes.
    public var expected: String

    public var description: String { "\(attribute): \"\(text)\" is not \(expected)" }
}
