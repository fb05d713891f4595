import Foundation

/// Converts attribute values to and from SQLite storage, the way Core Data stores them:
/// dates as seconds since 2001-01-01, booleans as 0/1, UUIDs as 16 bytes, URIs as text,
/// decimals as reals. The conversions to and from SQLite's values are the store's own;
/// what is public says whether a value fits an attribute type, and in which form it is kept.
///
/// ```swift
/// RowCodec.fits(.integer(70_000), .integer16)     // false: outside Integer 16's range
/// RowCodec.normalize(.integer(3), .double)        // .double(3)
/// ```
public enum RowCodec {
    /// Why a stored value cannot be read as its attribute's type.
    public struct DecodingFailure: Error, Sendable, Hashable {
        /// What was found (`text "abc"`).
        public var found: String
        /// What was expected (`Integer 32`).
        public var expected: String
        /// The value as stored (kept, so that a save writes it back unchanged).
        var stored: SQLiteValue = .null
    }

    /// The SQLite value stored for an attribute value.
    static func encode(_ value: AttributeValue?, as type: AttributeType) -> SQLiteValue {
        guard let value else { return .null }
        switch value {
        case .integer(let v): return type.isInteger || type == .boolean ? .integer(v) : .real(Double(v))
        case .double(let v):
            // Truncated as before; a double no Int64 holds stays a real rather than trap.
            guard type.isInteger, let whole = Int64(exactly: v.rounded(.towardZero)) else { return .real(v) }
            return .integer(whole)
        case .decimal(let v): return .real(AttributeValue.storedDouble(v))
        case .string(let s): return .text(s)
        case .bool(let b): return .integer(b ? 1 : 0)
        case .date(let d): return .real(d.timeIntervalSinceReferenceDate)
        case .data(let d): return .blob(d)
        case .uuid(let u): return .blob(withUnsafeBytes(of: u.uuid) { Data($0) })
        case .uri(let u): return .text(u.absoluteString)
        }
    }

    /// A value as the store holds it, whatever its attribute's type (a predicate's constant,
    /// a value aggregated or ordered as SQL would): dates as seconds since 2001, booleans as
    /// 0/1, UUIDs as 16 bytes, URIs as text, decimals as reals.
    static func stored(_ value: AttributeValue) -> SQLiteValue {
        switch value {
        case .integer(let v): .integer(v)
        case .double(let v): .real(v)
        case .decimal(let v): .real(AttributeValue.storedDouble(v))
        case .bool(let v): .integer(v ? 1 : 0)
        case .string(let v): .text(v)
        case .date(let v): .real(v.timeIntervalSinceReferenceDate)
        case .data(let v): .blob(v)
        case .uuid(let v): .blob(withUnsafeBytes(of: v.uuid) { Data($0) })
        case .uri(let v): .text(v.absoluteString)
        }
    }

    /// The attribute value for an SQLite value computed outside a statement (an aggregate of
    /// a dictionary fetch grouped in memory); stored columns are read with
    /// ``decode(_:column:as:)``, through Core Data's accessors.
    static func decode(_ value: SQLiteValue, as type: AttributeType) throws(DecodingFailure) -> AttributeValue? {
        if case .null = value { return nil }
        switch (type, value) {
        case (.integer16, .integer(let v)), (.integer32, .integer(let v)), (.integer64, .integer(let v)):
            return .integer(v)
        case (.integer16, .real(let v)), (.integer32, .real(let v)), (.integer64, .real(let v)):
            guard v.rounded() == v, abs(v) < 9.2e18 else { throw failure(value, type) }
            return .integer(Int64(v))
        case (.boolean, .integer(let v)): return .bool(v != 0)
        case (.boolean, .real(let v)): return .bool(v != 0)
        case (.double, .real(let v)), (.float, .real(let v)): return .double(v)
        case (.double, .integer(let v)), (.float, .integer(let v)): return .double(Double(v))
        case (.decimal, .real(let v)): return .decimal(AttributeValue.decimal(stored: v))
        case (.decimal, .integer(let v)): return .decimal(Decimal(v))
        case (.decimal, .text(let s)):
            guard let d = Decimal(string: s, locale: Locale(identifier: "en_US_POSIX")) else { throw failure(value, type) }
            return .decimal(d)
        case (.date, .real(let v)): return .date(Date(timeIntervalSinceReferenceDate: v))
        case (.date, .integer(let v)): return .date(Date(timeIntervalSinceReferenceDate: Double(v)))
        case (.string, .text(let s)): return .string(s)
        case (.uri, .text(let s)):
            guard let url = URL(string: s) else { throw failure(value, type) }
            return .uri(url)
        case (.uuid, .blob(let d)):
            guard d.count == 16 else { throw failure(value, type) }
            let b = [UInt8](d)
            return .uuid(UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])))
        case (.uuid, .text(let s)):
            guard let u = UUID(uuidString: s) else { throw failure(value, type) }
            return .uuid(u)
        case (.binaryData, .blob(let d)), (.transformable, .blob(let d)), (.undefined, .blob(let d)),
            (.objectID, .blob(let d)), (.composite, .blob(let d)):
            return .data(d)
        default:
            throw failure(value, type)
        }
    }

    /// Decodes a column of the current row straight from the statement, as Core Data reads
    /// it: with the `sqlite3_column_*` accessor of the attribute's type (``ColumnAccessor``)
    /// and the conversion SQLite applies with it to a value of another storage class (text
    /// `'10.0'` in a Double column reads as 10.0, the integer 0 in a Date column as
    /// 2001-01-01). A value the accessor would turn into something other than what it holds
    /// (text `"abc"` read as a number gives 0; the real 2.5 read as an integer gives 2) cannot
    /// be read: that is a ``DecodingFailure`` naming what was found and the type expected.
    ///
    /// The common storage classes are read without an intermediate ``SQLiteValue`` (this is
    /// the row path of every fetch).
    static func decode(_ statement: Statement, column: Int, as type: AttributeType) throws(DecodingFailure) -> AttributeValue? {
        // The column read once, its class and value from the one cell (see `StoredColumn`).
        guard let stored = statement.column(column) else { return nil }
        switch (type, stored.storageClass) {
        case (_, .null): return nil
        case (.string, .text): return .string(stored.string)
        case (.integer16, .integer), (.integer32, .integer), (.integer64, .integer): return .integer(stored.int64)
        case (.double, .real), (.float, .real): return .double(stored.double)
        case (.date, .real): return .date(Date(timeIntervalSinceReferenceDate: stored.double))
        case (.boolean, .integer): return .bool(stored.int64 != 0)
        case (.binaryData, .blob), (.transformable, .blob): return .data(statement.data(column) ?? Data())
        default: return try converted(statement, column: column, as: type)
        }
    }

    /// A non-NULL column read by its type's accessor, converted as SQLite converts it.
    private static func converted(_ statement: Statement, column: Int, as type: AttributeType) throws(DecodingFailure) -> AttributeValue {
        // Taken first: after a conversion SQLite no longer promises what the column's type is.
        let stored = statement.value(column)
        let reader = ColumnAccessor.Reading(statement: statement, column: column)
        let value: AttributeValue?
        switch ColumnAccessor(type) {
        case .int64:
            value = reader.wholeNumber().map { type == .boolean ? .bool($0 != 0) : .integer($0) }
        case .double:
            switch type {
            case .date: value = reader.number().map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
            case .decimal: value = reader.decimal().map { .decimal($0) }
            default: value = reader.number().map { .double($0) }
            }
        case .text:
            let text = reader.text()
            value = type == .uri ? text.flatMap { URL(string: $0) }.map { .uri($0) } : text.map { .string($0) }
        case .blob:
            value = type == .uuid ? reader.uuid().map { .uuid($0) } : .data(reader.bytes())
        }
        guard let value else { throw failure(stored, type) }
        return value
    }

    /// Binds an attribute value to a statement parameter the way ``encode(_:as:)`` stores it.
    static func bind(_ value: AttributeValue?, as type: AttributeType, to statement: Statement, at index: Int32) throws(SQLiteError) {
        switch value {
        case .string(let s)?: try statement.bind(text: s, at: index)
        case .integer(let v)? where type.isInteger || type == .boolean: statement.bind(v, at: index)
        case .double(let v)? where !type.isInteger: statement.bind(double: v, at: index)
        default: try statement.bind(encode(value, as: type), at: index)
        }
    }

    private static func failure(_ value: SQLiteValue, _ type: AttributeType) -> DecodingFailure {
        DecodingFailure(found: value.shownAsFound, expected: type.xcodeName, stored: value)
    }

    /// Whether a value fits an attribute type (checked when a value is set).
    public static func fits(_ value: AttributeValue, _ type: AttributeType) -> Bool {
        switch (type, value) {
        case (.integer16, .integer(let v)), (.integer32, .integer(let v)), (.integer64, .integer(let v)):
            return type.integerRange?.contains(v) ?? true
        case (.boolean, .bool), (.boolean, .integer): return true
        // SQLite keeps no NaN (it stores NULL), and a double beyond Float's range would become
        // an infinity: neither is the value given.
        case (.double, .double(let v)): return !v.isNaN
        case (.float, .double(let v)): return !v.isNaN && (Float(v).isFinite || v.isInfinite)
        case (.double, .integer), (.float, .integer): return true
        case (.decimal, .decimal), (.decimal, .double), (.decimal, .integer): return true
        case (.string, .string), (.date, .date), (.uuid, .uuid), (.uri, .uri): return true
        case (.binaryData, .data), (.transformable, .data), (.undefined, _), (.objectID, .data), (.composite, .data): return true
        default: return false
        }
    }

    /// The value converted to the attribute's own representation (an integer given for a
    /// Double attribute becomes a double, and so on).
    public static func normalize(_ value: AttributeValue, _ type: AttributeType) -> AttributeValue {
        switch (type, value) {
        case (.double, .integer(let v)), (.float, .integer(let v)): .double(Double(v))
        case (.float, .double(let v)): .double(Double(Float(v)))
        case (.boolean, .integer(let v)): .bool(v != 0)
        case (.decimal, .integer(let v)): .decimal(Decimal(v))
        case (.decimal, .double(let v)): .decimal(AttributeValue.decimal(stored: v))
        default: value
        }
    }
}
