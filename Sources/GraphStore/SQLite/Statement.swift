import CSQLite
import Foundation

/// A prepared SQL statement: bind parameters, step through rows, read columns. Internal to
/// the library, like ``Connection``.
///
/// Statements belong to one ``Connection`` and are reused through its statement cache;
/// ``reset()`` makes one ready for the next execution. A statement holds exactly one SQL
/// statement: text left after it is an error, not silently ignored. A statement kept after
/// its connection went away refuses to run (``step()`` throws `SQLITE_MISUSE`).
///
/// ```swift
/// let statement = try connection.prepare("SELECT Z_PK, ZTITLE FROM ZBOOK WHERE ZPRICE > ?")
/// try statement.bind([.real(10)])
/// while try statement.step() { print(statement.int64(0), statement.string(1) ?? "") }
/// ```
final class Statement {
    /// The SQL text the statement was prepared from.
    let sql: String
    let handle: OpaquePointer
    /// Whether the connection is still open (a statement does not keep its connection: the
    /// connection's cache holds its statements).
    private let lifetime: ConnectionLifetime

    init(connection: Connection, sql: String) throws(SQLiteError) {
        var handle: OpaquePointer?
        // The UTF-8 offset where text follows the first statement, when it holds another one.
        let (rc, leftoverOffset) = sql.withCString { text -> (Int32, Int?) in
            var tail: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v2(connection.handle, text, -1, &handle, &tail)
            guard rc == SQLITE_OK, let tail, Statement.holdsStatement(tail, connection: connection.handle) else { return (rc, nil) }
            return (rc, text.distance(to: tail))
        }
        guard rc == SQLITE_OK, let handle else {
            throw SQLiteError(code: rc, connection: connection.handle, sql: sql)
        }
        if let leftoverOffset {
            sqlite3_finalize(handle)
            let leftover = String(decoding: sql.utf8.dropFirst(leftoverOffset), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw SQLiteError(
                code: SQLITE_MISUSE, message: "more than one statement: \"\(leftover)\" follows the first (a script of several runs with executeScript)",
                sql: sql, offset: leftoverOffset)
        }
        self.sql = sql
        self.handle = handle
        self.lifetime = connection.lifetime
    }

    /// Whether the text after a statement holds another one (whitespace, semicolons and
    /// comments do not; text that does not even compile does).
    private static func holdsStatement(_ tail: UnsafePointer<CChar>, connection: OpaquePointer) -> Bool {
        var next: OpaquePointer?
        let rc = sqlite3_prepare_v2(connection, tail, -1, &next, nil)
        sqlite3_finalize(next)
        return rc != SQLITE_OK || next != nil
    }

    deinit { sqlite3_finalize(handle) }

    /// The error for using the statement after its connection went away.
    private var closedConnection: SQLiteError {
        SQLiteError(code: SQLITE_MISUSE, message: "the statement's connection is closed", sql: sql)
    }

    // MARK: - Binding

    /// Binds values to the parameters `?1`, `?2`, ... in order.
    func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        for (i, value) in values.enumerated() {
            try bind(value, at: Int32(i + 1))
        }
    }

    /// Binds one value to a 1-based parameter index.
    func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        let rc: Int32
        switch value {
        case .null: rc = sqlite3_bind_null(handle, index)
        case .integer(let v): rc = sqlite3_bind_int64(handle, index, v)
        case .real(let v): rc = sqlite3_bind_double(handle, index, v)
        case .text(let s): rc = Self.bindText(s, handle, index)
        case .blob(let d):
            rc = d.withUnsafeBytes { raw in
                sqlite3_bind_blob64(handle, index, raw.baseAddress, sqlite3_uint64(raw.count), graphstore_sqlite_transient())
            }
        }
        guard rc == SQLITE_OK else { throw error(rc) }
    }

    /// The error SQLite reports for `code` on this statement's connection.
    private func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, connection: sqlite3_db_handle(handle), sql: sql)
    }

    /// Binds an integer without boxing it in a ``SQLiteValue`` (hot paths).
    func bind(_ value: Int64, at index: Int32) {
        sqlite3_bind_int64(handle, index, value)
    }

    /// Binds a double without boxing it (hot paths).
    func bind(double value: Double, at index: Int32) {
        sqlite3_bind_double(handle, index, value)
    }

    /// Binds text without boxing it (hot paths).
    func bind(text value: String, at index: Int32) throws(SQLiteError) {
        let rc = Self.bindText(value, handle, index)
        guard rc == SQLITE_OK else { throw error(rc) }
    }

    /// Binds a string's UTF-8 bytes with their length: a NUL inside the string is kept
    /// (a C string would end there), and SQLite need not measure it. SQLite copies them.
    private static func bindText(_ value: String, _ handle: OpaquePointer, _ index: Int32) -> Int32 {
        withSQLiteText(value) { text, length in
            sqlite3_bind_text64(handle, index, text, length, graphstore_sqlite_transient(), UInt8(SQLITE_UTF8))
        }
    }

    /// Binds NULL.
    func bindNull(at index: Int32) {
        sqlite3_bind_null(handle, index)
    }

    /// The number of parameters the statement takes.
    var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    // MARK: - Stepping

    /// Runs to the next row. Returns true when a row is available, false when done.
    /// Throws `SQLITE_MISUSE` once the statement's connection is closed.
    @discardableResult
    func step() throws(SQLiteError) -> Bool {
        guard lifetime.isOpen else { throw closedConnection }
        if let check = lifetime.beforeStatement, sqlite3_stmt_busy(handle) == 0, let error = check() { throw error }
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = error(rc)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Resets the statement and clears its bindings, ready to run again.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Resets the statement but keeps its bindings: for statements whose every parameter is
    /// bound again before each run (the save path's per-row inserts and updates), where
    /// clearing them first is wasted work.
    func rewind() {
        sqlite3_reset(handle)
    }

    /// Binds, runs to completion, and resets (for INSERT/UPDATE/DELETE).
    func execute(_ values: [SQLiteValue] = []) throws(SQLiteError) {
        defer { reset() }
        try bind(values)
        while try step() {}
    }

    // MARK: - Columns

    /// The number of result columns.
    var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The name of a result column.
    func columnName(_ index: Int) -> String {
        sqlite3_column_name(handle, Int32(index)).map { String(cString: $0) } ?? ""
    }

    /// The names of all result columns.
    var columnNames: [String] { (0..<columnCount).map(columnName) }

    /// The storage class of a column of the current row.
    func storageClass(_ index: Int) -> StorageClass {
        StorageClass(sqlite3_column_type(handle, Int32(index)))
    }

    /// SQLite's five storage classes.
    enum StorageClass: Sendable {
        case null, integer, real, text, blob

        /// The class of a `sqlite3_column_type` or `sqlite3_value_type` answer.
        @inline(__always)
        init(_ type: Int32) {
            switch type {
            case SQLITE_INTEGER: self = .integer
            case SQLITE_FLOAT: self = .real
            case SQLITE_TEXT: self = .text
            case SQLITE_BLOB: self = .blob
            default: self = .null
            }
        }
    }

    /// Whether a column of the current row is NULL.
    func isNull(_ index: Int) -> Bool { sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL }

    /// A column as an integer (SQLite's conversion rules apply).
    func int64(_ index: Int) -> Int64 { sqlite3_column_int64(handle, Int32(index)) }

    /// A column as a double (SQLite's conversion rules apply).
    func double(_ index: Int) -> Double { sqlite3_column_double(handle, Int32(index)) }

    /// A column as text, or nil when NULL.
    func string(_ index: Int) -> String? {
        guard let text = sqlite3_column_text(handle, Int32(index)) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, Int32(index)))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// Calls `body` with a column's text as UTF-8 bytes (what `sqlite3_column_text` gives,
    /// without copying them), or returns nil when NULL. The bytes are SQLite's, valid only
    /// until `body` returns: `body` must not keep the buffer.
    func withTextBytes<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        guard let text = sqlite3_column_text(handle, Int32(index)) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, Int32(index)))
        return body(UnsafeBufferPointer(start: text, count: count))
    }

    /// A column as bytes, or nil when NULL.
    func data(_ index: Int) -> Data? {
        let i = Int32(index)
        guard sqlite3_column_type(handle, i) != SQLITE_NULL else { return nil }
        let count = Int(sqlite3_column_bytes(handle, i))
        guard count > 0, let bytes = sqlite3_column_blob(handle, i) else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    /// A column with its storage class preserved.
    func value(_ index: Int) -> SQLiteValue {
        let i = Int32(index)
        switch sqlite3_column_type(handle, i) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, i))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, i))
        case SQLITE_TEXT: return .text(string(index) ?? "")
        case SQLITE_BLOB: return .blob(data(index) ?? Data())
        default: return .null
        }
    }

    /// All columns of the current row.
    func row() -> [SQLiteValue] { (0..<columnCount).map(value) }
}

/// A string's UTF-8 bytes as SQLite takes text: a pointer (never null, even when empty) and
/// a length, so that a NUL inside the string is kept.
func withSQLiteText<R>(_ value: String, _ body: (UnsafePointer<CChar>, sqlite3_uint64) -> R) -> R {
    var value = value
    return value.withUTF8 { bytes in
        let start = UnsafeRawPointer(bytes.baseAddress ?? StaticString("").utf8Start)
        return body(start.assumingMemoryBound(to: CChar.self), sqlite3_uint64(bytes.count))
    }
}
