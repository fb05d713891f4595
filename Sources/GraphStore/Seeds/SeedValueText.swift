import Foundation

/// Attribute values as seed text (CSV cells, JSON strings, update scripts): one spelling per
/// value, read back as the attribute's type, so that a seed round-trips through text.
///
/// ```swift
/// SeedValueText.format(.double(12.5))                        // "12.5"
/// try SeedValueText.parse("2020-01-01", as: published)       // .date(…)
/// ```
public enum SeedValueText {
    /// The text of a value, exact: it reads back (``parse(_:as:)``) to the same stored value.
    /// Numbers as the shortest digits that read back (`0.1`, `1e+16`; `inf`, `-inf` for the
    /// infinities SQLite can hold), booleans `true`/`false`, dates ISO 8601 in UTC with as many
    /// fractional digits as the stored double needs (``ISO8601DateText``), UUIDs, URIs, and
    /// data (Binary, Transformable) whole as `0x` and lower-case hex.
    public static func format(_ value: AttributeValue) -> String {
        switch value {
        case .integer(let i): return String(i)
        case .double(let d): return AttributeValue.format(d)
        case .decimal(let d): return "\(d)"
        case .bool(let b): return b ? "true" : "false"
        case .string(let s): return s
        case .date(let date): return ISO8601DateText.string(from: date)
        case .uuid(let uuid): return uuid.uuidString
        case .uri(let url): return url.absoluteString
        case .data(let data): return hex(data)
        }
    }

    /// Bytes as `0x` and two lower-case hex digits each (`0x89504e47`; `0x` when empty).
    public static func hex(_ data: Data) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = [UInt8(ascii: "0"), UInt8(ascii: "x")]
        bytes.reserveCapacity(2 + data.count * 2)
        for byte in data {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: bytes, as: UTF8.self)
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

    /// Reads text as an attribute's type, strictly: text that would be stored as another
    /// value (February 30th, `1e39` in a Float, an integer beyond its type) is refused, never
    /// changed. The error says what was expected.
    public static func parse(_ text: String, as attribute: AttributeDescription) throws(SeedTextError) -> AttributeValue {
        func fail(_ expected: String) -> SeedTextError {
            SeedTextError(attribute: attribute.name, text: text, expected: expected)
        }
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            let range = attribute.type.integerRange ?? Int64.min...Int64.max
            let outside = fail("within \(range.lowerBound)…\(range.upperBound) (the range of \(attribute.type.xcodeName))")
            guard let value = Int64(trimmed) else { throw isWholeNumber(trimmed) ? outside : fail("a whole number") }
            if !range.contains(value) { throw outside }
            return .integer(value)
        case .double, .float:
            return .double(try real(text.trimmingCharacters(in: .whitespaces), isFloat: attribute.type == .float, fail))
        case .decimal:
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard isDecimalNumber(trimmed), let value = Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX")) else {
                throw fail("a decimal number")
            }
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
            do {
                return .date(try ISO8601DateText.date(from: text))
            } catch {
                throw fail(error.reason.map { "a date: \($0)" } ?? "a date (2020-01-01 or 2020-01-01T10:30:00Z)")
            }
        case .uuid:
            guard let uuid = UUID(uuidString: text) else { throw fail("a UUID") }
            return .uuid(uuid)
        case .uri:
            // Not percent-encoded on the way in: the text stored is the text given.
            guard let url = URL(string: text, encodingInvalidCharacters: false), url.scheme != nil, url.absoluteString == text else {
                throw fail("a URI with a scheme")
            }
            return .uri(url)
        case .binaryData, .transformable:
            guard let data = bytes(fromHex: text) else { throw fail("hex bytes (0x89504e47)") }
            return .data(data)
        case .undefined, .objectID, .composite:
            throw fail("a type seeds can hold (\(attribute.type.xcodeName) cannot be written as text)")
        }
    }

    /// A Double or Float attribute's value: a number in the type's range, or `inf`/`-inf`
    /// spelled out (SQLite holds infinities). A number too large for the type would be stored
    /// as an infinity, and NaN as NULL (SQLite keeps no NaN), so both are refused.
    private static func real(_ text: String, isFloat: Bool, _ fail: (String) -> SeedTextError) throws(SeedTextError) -> Double {
        switch text.lowercased() {
        case "inf", "+inf", "infinity", "+infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        case "nan", "+nan", "-nan": throw fail("a number SQLite can store (it stores NaN as NULL)")
        default: break
        }
        guard text.first.map({ $0.isNumber || $0 == "-" || $0 == "+" || $0 == "." }) == true, let value = Double(text), !value.isNaN else {
            throw fail("a number")
        }
        if !value.isFinite { throw fail("a number within ±\(Double.greatestFiniteMagnitude) (the range of Double)") }
        if isFloat, !Float(value).isFinite { throw fail("a number within ±\(Float.greatestFiniteMagnitude) (the range of Float)") }
        return value
    }

    /// Whether text is an optional sign and digits (an integer, whatever its size).
    private static func isWholeNumber(_ text: String) -> Bool {
        let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : Substring(text)
        return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Whether text is a decimal number as a whole (Foundation's reader stops at the first
    /// character that is not part of one, so `1.5abc` would read as 1.5).
    private static func isDecimalNumber(_ text: String) -> Bool {
        ColumnAccessor.isNumeric(text)
    }

    /// `0x` and pairs of hex digits, as bytes; nil for anything else.
    static func bytes(fromHex text: String) -> Data? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "0"), utf8[1] == UInt8(ascii: "x") || utf8[1] == UInt8(ascii: "X"), utf8.count % 2 == 0
        else { return nil }
        func nibble(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var data = Data(capacity: utf8.count / 2 - 1)
        var index = 2
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            data.append(high << 4 | low)
            index += 2
        }
        return data
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
