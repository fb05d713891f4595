import CSQLite
import Foundation

/// The arguments of one call of an SQL function, read in place: text is handed out as the
/// UTF-8 bytes SQLite holds, so a function that can answer from the bytes allocates nothing.
///
/// ```swift
/// try db.registerInPlaceFunction("IS_ASCII", argumentCount: 1) { arguments in
///     guard let bytes = arguments.utf8(0) else { return .null }
///     return .integer(bytes.allSatisfy { $0 < 0x80 } ? 1 : 0)
/// }
/// ```
struct SQLFunctionArguments {
    /// The number of arguments.
    let count: Int
    private let values: UnsafeMutablePointer<OpaquePointer?>?

    init(count: Int32, values: UnsafeMutablePointer<OpaquePointer?>?) {
        self.count = Int(count)
        self.values = values
    }

    private func value(at index: Int) -> OpaquePointer? { values?[index] }

    /// Whether an argument is NULL.
    func isNull(_ index: Int) -> Bool { sqlite3_value_type(value(at: index)) == SQLITE_NULL }

    /// Whether an argument is text.
    func isText(_ index: Int) -> Bool { sqlite3_value_type(value(at: index)) == SQLITE_TEXT }

    /// An argument as an integer (SQLite's conversion rules apply).
    func int64(_ index: Int) -> Int64 { sqlite3_value_int64(value(at: index)) }

    /// A text argument's UTF-8 bytes, valid during the call only; nil unless it is text.
    func utf8(_ index: Int) -> UnsafeBufferPointer<UInt8>? {
        let argument = value(at: index)
        guard sqlite3_value_type(argument) == SQLITE_TEXT, let text = sqlite3_value_text(argument) else { return nil }
        return UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(argument)))
    }

    /// An argument with its storage class preserved (text and blobs copied).
    func value(_ index: Int) -> SQLiteValue { SQLiteValue(sqlite: value(at: index)) }
}

extension Connection {
    /// Registers an SQL function that reads its arguments in place (see ``SQLFunctionArguments``),
    /// for functions called once per row of large scans.
    ///
    /// - Throwing from `body` makes the SQL statement fail with the error's description.
    func registerInPlaceFunction(
        _ name: String, argumentCount: Int32, deterministic: Bool = true,
        _ body: @escaping (SQLFunctionArguments) throws -> SQLiteValue
    ) throws(SQLiteError) {
        // SQLite owns the context and frees it (xDestroy) when the function goes away.
        let context = CallbackContext.make(body)
        let flags = SQLITE_UTF8 | (deterministic ? SQLITE_DETERMINISTIC : 0)
        let rc = sqlite3_create_function_v2(
            handle, name, argumentCount, flags, context,
            { context, count, arguments in
                guard let context, let data = sqlite3_user_data(context) else { return }
                do {
                    // Called where it lies, not copied out first: this runs once per row of a scan.
                    let result = try CallbackContext.withValue(at: data, as: InPlaceFunction.self) { body in
                        try body(SQLFunctionArguments(count: count, values: arguments))
                    }
                    setResult(context, result)
                } catch {
                    sqlite3_result_error(context, "\(error)", -1)
                }
            }, nil, nil, { data in data.map { CallbackContext.release($0, as: InPlaceFunction.self) } })
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, connection: handle, sql: nil) }
    }
}

/// A Swift function SQLite calls with its arguments in place.
private typealias InPlaceFunction = (SQLFunctionArguments) throws -> SQLiteValue

/// Hands a Swift function's result to SQLite (text and blobs are copied).
func setResult(_ context: OpaquePointer, _ value: SQLiteValue) {
    switch value {
    case .null: sqlite3_result_null(context)
    case .integer(let v): sqlite3_result_int64(context, v)
    case .real(let v): sqlite3_result_double(context, v)
    case .text(let s):
        withSQLiteText(s) { sqlite3_result_text64(context, $0, $1, graphstore_sqlite_transient(), UInt8(SQLITE_UTF8)) }
    case .blob(let d):
        d.withUnsafeBytes { raw in
            sqlite3_result_blob64(context, raw.baseAddress, sqlite3_uint64(raw.count), graphstore_sqlite_transient())
        }
    }
}
