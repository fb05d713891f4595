import Foundation

/// A typed attribute value, as an object holds it in memory.
///
/// A missing value is `nil` (`AttributeValue?`), as in Core Data. Float attributes hold
/// `.double`; Boolean attributes hold `.bool`; Transformable attributes hold the
/// transformer's bytes as `.data`.
///
/// ```swift
/// let price: AttributeValue = 18.5          // .double(18.5)
/// let title: AttributeValue = "Dune"        // .string("Dune")
/// ```
public enum AttributeValue: Sendable, Hashable {
    case integer(Int64)
    case double(Double)
    case decimal(Decimal)
    case string(String)
    case bool(Bool)
    case date(Date)
    case data(Data)
    case uuid(UUID)
    case uri(URL)

    /// The value as a Swift integer, converting booleans and whole numbers.
    public var integerValue: Int64? {
        switch self {
        case .integer(let v): v
        case .bool(let v): v ? 1 : 0
        case .double(let v): v.rounded(.towardZero) == v && abs(v) < 9.2e18 ? Int64(v) : nil
        case .decimal(let v): Int64(exactly: NSDecimalNumber(decimal: v).doubleValue)
        default: nil
        }
    }

    /// The value as a Double, for numbers and booleans.
    public var doubleValue: Double? {
        switch self {
        case .integer(let v): Double(v)
        case .double(let v): v
        case .decimal(let v): NSDecimalNumber(decimal: v).doubleValue
        case .bool(let v): v ? 1 : 0
        default: nil
        }
    }

    /// The string, for `.string` values.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The boolean, for `.bool` values and the integers 0 and 1.
    public var boolValue: Bool? {
        switch self {
        case .bool(let b): b
        case .integer(let v): v != 0
        default: nil
        }
    }

    /// The date, for `.date` values.
    public var dateValue: Date? {
        if case .date(let d) = self { return d }
        return nil
    }

    /// The bytes, for `.data` values.
    public var dataValue: Data? {
        if case .data(let d) = self { return d }
        return nil
    }

    /// Whether this value is a number (integer, double, decimal or boolean).
    public var isNumber: Bool { doubleValue != nil }
}

extension AttributeValue: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByBooleanLiteral
{
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension AttributeValue: CustomStringConvertible {
    /// A plain rendering: numbers as numbers, dates in ISO 8601, UUIDs as text,
    /// data as its size and first bytes.
    public var description: String {
        switch self {
        case .integer(let v): String(v)
        case .double(let v): AttributeValue.format(v)
        case .decimal(let v): "\(v)"
        case .string(let s): s
        case .bool(let b): b ? "true" : "false"
        case .date(let d): AttributeValue.iso8601(d)
        case .data(let d): AttributeValue.dataSummary(d)
        case .uuid(let u): u.uuidString
        case .uri(let u): u.absoluteString
        }
    }

    /// Formats a double the shortest way that reads back exactly (`15` not `15.0`).
    public static func format(_ value: Double) -> String {
        if value.isFinite, value.rounded() == value, abs(value) < 1e15 {
            return String(Int64(value))
        }
        return "\(value)"
    }

    /// ISO 8601 in UTC with fractional seconds when present (`2014-09-01T10:00:00Z`).
    public static func iso8601(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        let style: Date.ISO8601FormatStyle =
            seconds.rounded() == seconds ? .iso8601 : Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        return date.formatted(style)
    }

    /// `<N bytes: 89504e47…>`: the size and the first eight bytes in hex.
    public static func dataSummary(_ data: Data) -> String {
        let prefix = data.prefix(8).map { String(format: "%02x", $0) }.joined()
        let more = data.count > 8 ? "…" : ""
        return "<\(data.count) bytes\(data.isEmpty ? "" : ": \(prefix)\(more)")>"
    }
}

extension AttributeValue {
    /// The value as a message shows it: a string quoted (and cut when long), others plain.
    var quotedInMessages: String {
        guard case .string(let s) = self else { return description }
        let cut = s.count > 60 ? String(s.prefix(57)) + "…" : s
        return "\"\(cut)\""
    }
}
