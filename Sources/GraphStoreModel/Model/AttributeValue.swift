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
        case .decimal(let v): Int64(exactly: AttributeValue.storedDouble(v))
        default: nil
        }
    }

    /// The value as a Double, for numbers and booleans.
    public var doubleValue: Double? {
        switch self {
        case .integer(let v): Double(v)
        case .double(let v): v
        case .decimal(let v): AttributeValue.storedDouble(v)
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

    /// Formats a double the shortest way that reads back exactly (`15` not `15.0`, `-0` for
    /// negative zero, `inf`, `-inf`, `nan`).
    public static func format(_ value: Double) -> String {
        if value == 0, value.sign == .minus { return "-0" }
        if value.isFinite, value.rounded() == value, abs(value) < 1e15 {
            return String(Int64(value))
        }
        // The shortest digits that read back (what interpolation writes, without its buffer).
        return value.description
    }

    /// ISO 8601 in UTC with the fractional seconds the date holds, as many digits as read
    /// back to the same stored double (`2014-09-01T10:00:00Z`, `2017-09-13T18:06:28.940283Z`).
    public static func iso8601(_ date: Date) -> String {
        ExactDateText.string(from: date, in: .gmt)
    }

    /// The Decimal a stored double is: its shortest digits that read back to it
    /// (`3.3333333332999993`, as `NSDecimalNumber(string:)` holds that text), not the double's
    /// full binary expansion, which `Decimal(Double)` gives (`3.333333333299999232`). Core Data
    /// stores Decimal attributes as reals (docs/values.md).
    public static func decimal(stored value: Double) -> Decimal {
        Decimal(string: "\(value)", locale: Locale(identifier: "en_US_POSIX")) ?? Decimal(value)
    }

    /// The double a Decimal is stored as: its text read as a double, rounded once
    /// (`NSDecimalNumber.doubleValue` rounds more than once and can miss the nearest double).
    public static func storedDouble(_ value: Decimal) -> Double {
        Double(value.description) ?? NSDecimalNumber(decimal: value).doubleValue
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
    package var quotedInMessages: String {
        guard case .string(let s) = self else { return description }
        let cut = s.count > 60 ? String(s.prefix(57)) + "…" : s
        return "\"\(cut)\""
    }
}
