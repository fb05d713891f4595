import Foundation
import GraphStore

/// Reads a value typed in a command as its attribute's type, with a message that names the
/// attribute, its type and what was expected when the text does not fit.
enum InlineValue {
    static func parse(_ assignment: Assignment, as attribute: AttributeDescription, entity: String) throws(ShellError) -> AttributeValue? {
        let text = assignment.text
        if !assignment.quoted, ["nil", "null"].contains(text.lowercased()) { return nil }
        func fail(_ expected: String) -> ShellError {
            ShellError("\(entity).\(attribute.name) is \(attribute.type.xcodeName); \(assignment.quoted ? "\"\(text)\"" : text) is not \(expected)")
        }
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            guard let value = Int64(text) else { throw fail("a whole number") }
            if let range = attribute.type.integerRange, !range.contains(value) {
                throw ShellError("\(entity).\(attribute.name) is \(attribute.type.xcodeName); \(text) is outside \(range.lowerBound)…\(range.upperBound)")
            }
            return .integer(value)
        case .double, .float:
            guard let value = Double(text), value.isFinite else { throw fail("a number") }
            return .double(value)
        case .decimal:
            guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !text.isEmpty else { throw fail("a decimal number") }
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
            guard let date = date(text) else { throw fail("a date (2020-01-01 or 2020-01-01T10:30:00Z)") }
            return .date(date)
        case .uuid:
            guard let uuid = UUID(uuidString: text) else { throw fail("a UUID") }
            return .uuid(uuid)
        case .uri:
            guard let url = URL(string: text), url.scheme != nil else { throw fail("a URI with a scheme") }
            return .uri(url)
        case .binaryData, .transformable:
            guard let data = hex(text) else { throw fail("hex bytes (0x89504e47)") }
            return .data(data)
        case .undefined, .objectID, .composite:
            throw ShellError("\(entity).\(attribute.name) is \(attribute.type.xcodeName), which cannot be typed in a command")
        }
    }

    /// ISO 8601 with a time zone (fractional seconds allowed), or a day (midnight UTC).
    static func date(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
        let day = Date.ISO8601FormatStyle().year().month().day()
        return try? Date(text, strategy: day)
    }

    private static func hex(_ text: String) -> Data? {
        guard text.hasPrefix("0x") else { return nil }
        let digits = Array(text.dropFirst(2))
        guard digits.count % 2 == 0 else { return nil }
        var data = Data()
        var i = 0
        while i < digits.count {
            guard let byte = UInt8(String(digits[i...i + 1]), radix: 16) else { return nil }
            data.append(byte)
            i += 2
        }
        return data
    }
}
