import Foundation

/// A value as SQLite stores it: one of its five storage classes.
///
/// ```swift
/// let v: SQLiteValue = .text("Dune")
/// v.typeName   // "text"
/// ```
public enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    /// The storage class name, as `typeof()` reports it.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .integer: "integer"
        case .real: "real"
        case .text: "text"
        case .blob: "blob"
        }
    }

    /// Whether the value is SQL NULL.
    public var isNull: Bool { self == .null }

    /// The value as a message about a bad one shows it: `text "abc"`, `a 3-byte blob`,
    /// `real 1e+300`.
    var shownAsFound: String {
        switch self {
        case .text(let s): "text \"\(s.prefix(40))\""
        case .blob(let d): "a \(d.count)-byte blob"
        default: "\(typeName) \(self)"
        }
    }
}

extension SQLiteValue: CustomStringConvertible {
    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let v): String(v)
        case .real(let v): "\(v)"
        case .text(let s): s
        case .blob(let d): AttributeValue.dataSummary(d)
        }
    }
}
