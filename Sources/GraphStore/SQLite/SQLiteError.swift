import CSQLite

/// An error reported by SQLite, with its result code, message and the SQL that failed.
///
/// The description quotes at most ``TextExcerpt/defaultWidth`` characters of the SQL, taken
/// around the place SQLite points at (or from the start), with `…` where it was cut; `sql`
/// keeps the whole statement.
///
/// ```swift
/// do { try connection.execute("SELECT * FROM nope") }
/// catch let error as SQLiteError { print(error.code, error.message) }   // 1 no such table: nope
/// ```
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The primary result code (`SQLITE_ERROR` = 1, `SQLITE_BUSY` = 5, ...).
    public var code: Int32
    /// The extended result code, when SQLite gave one.
    public var extendedCode: Int32
    /// SQLite's own message.
    public var message: String
    /// The SQL statement that failed, if any.
    public var sql: String?
    /// Where in `sql` SQLite found the problem, as a UTF-8 byte offset, when it says.
    public var offset: Int?

    /// Creates an error.
    public init(code: Int32, extendedCode: Int32? = nil, message: String, sql: String? = nil, offset: Int? = nil) {
        self.code = code
        self.extendedCode = extendedCode ?? code
        self.message = message
        self.sql = sql
        self.offset = offset
    }

    init(code: Int32, connection: OpaquePointer?, sql: String? = nil) {
        let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
        let offset = connection.map { Int(sqlite3_error_offset($0)) }.flatMap { $0 >= 0 ? $0 : nil }
        self.init(code: code & 0xff, extendedCode: extended, message: message, sql: sql, offset: sql == nil ? nil : offset)
    }

    /// `SQLite error 1: near "FORM": syntax error (in: SELECT * FORM t)`.
    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " (in: \(TextExcerpt(sql, aroundUTF8Offset: offset ?? 0).text))" }
        return text
    }
}
