import CSQLite
import Foundation

/// How a ``Connection`` opens its database file.
enum OpenMode: Sendable, Hashable {
    /// Read only; the file must exist. Nothing is ever written.
    case readOnly
    /// Read and write; the file must exist.
    case readWrite
    /// Read and write, creating the file if needed.
    case create
}

/// One connection to an SQLite database, with a cache of prepared statements: the store's
/// way to SQLite, internal to the library (the public API speaks of stores, rows and
/// requests, never of connections or statements).
///
/// A connection is not shared between threads: like a Core Data context, it is used by
/// one task at a time. Its statements may outlive it; using one afterwards is an error
/// (``Statement/step()`` throws), never a crash.
///
/// ```swift
/// let db = try Connection(path: "/tmp/example.sqlite", mode: .create)
/// try db.execute("CREATE TABLE T (A INTEGER)")
/// try db.transaction { try db.cachedStatement("INSERT INTO T VALUES (?)").execute([.integer(1)]) }
/// try db.executeScript("PRAGMA page_size = 4096; PRAGMA journal_mode = WAL")
/// ```
final class Connection {
    /// The path the connection was opened with.
    let path: String
    /// The mode the connection was opened with.
    let mode: OpenMode
    let handle: OpaquePointer
    /// Whether the connection is open, shared with its statements (see ``Statement``).
    let lifetime = ConnectionLifetime()
    private var statementCache: [String: Statement] = [:]
    /// The context of the statement trace, while one is installed (see ``traceStatements(_:)``).
    private var traceContext: UnsafeMutableRawPointer?

    /// How long, in milliseconds, a statement waits for another connection's lock before
    /// failing with `SQLITE_BUSY`.
    static let defaultBusyTimeout: Int32 = 5000

    /// Opens a database. `path` may be a `file:` URI (`file:store.sqlite?immutable=1`).
    init(path: String, mode: OpenMode, busyTimeout: Int32 = Connection.defaultBusyTimeout) throws(SQLiteError) {
        var flags: Int32 = SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
        switch mode {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        var handle: OpaquePointer?
        let rc = sqlite3_open_v2(path, &handle, flags, nil)
        guard rc == SQLITE_OK, let handle else {
            let error = SQLiteError(code: rc, connection: handle, sql: nil)
            sqlite3_close_v2(handle)
            throw error
        }
        self.path = path
        self.mode = mode
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeout)
    }

    deinit {
        traceStatements(nil)
        statementCache.removeAll()
        // Statements still held elsewhere keep SQLite's side of the connection until they
        // are finalized (sqlite3_close_v2); they refuse to run from now on.
        lifetime.isOpen = false
        sqlite3_close_v2(handle)
    }

    /// Has every statement call `check` before it starts (its first step after a reset),
    /// and fail with the error `check` returns, if any, without running: for a connection
    /// whose reads are only right while its files stay as they were (a store read in place,
    /// see `ReadOnlyAccess`).
    func checkBeforeEachStatement(_ check: @escaping () -> SQLiteError?) {
        lifetime.beforeStatement = check
    }

    // MARK: - Statements

    /// Prepares a new statement (not cached).
    func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        try Statement(connection: self, sql: sql)
    }

    /// Returns the cached statement for this SQL text, preparing it the first time.
    /// The statement comes back reset, with no bindings.
    func cachedStatement(_ sql: String) throws(SQLiteError) -> Statement {
        if let statement = statementCache[sql] {
            statement.reset()
            return statement
        }
        let statement = try prepare(sql)
        statementCache[sql] = statement
        return statement
    }

    /// Runs one SQL statement that takes no parameters, to completion. Text after the
    /// first statement is an error (see ``prepare(_:)``): a script is ``executeScript(_:)``.
    func execute(_ sql: String) throws(SQLiteError) {
        try prepare(sql).execute()
    }

    /// Runs a script: several SQL statements separated by semicolons, none taking
    /// parameters, one after the other (`PRAGMA page_size = 4096; PRAGMA journal_mode = WAL`).
    func executeScript(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        guard rc == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_free(message)
            throw SQLiteError(code: rc & 0xff, extendedCode: sqlite3_extended_errcode(handle), message: text, sql: sql)
        }
    }

    /// Runs a query and returns every row (for small results: metadata, schema).
    func rows(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(values)
        var rows: [[SQLiteValue]] = []
        while try statement.step() { rows.append(statement.row()) }
        return rows
    }

    /// Runs a query and returns the first column of the first row, if any.
    func scalar(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> SQLiteValue? {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(values)
        return try statement.step() ? statement.value(0) : nil
    }

    // MARK: - Transactions

    /// Runs `body` in a transaction: `BEGIN IMMEDIATE` (so a writer waits for the lock up
    /// front, not half-way), `COMMIT` on success, `ROLLBACK` on any error; inside another
    /// transaction, a savepoint.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        // Inside a transaction, a savepoint: the inner work is undone alone if it fails, and
        // kept only if the outer transaction commits.
        if isInTransaction {
            try execute("SAVEPOINT graphstore_nested")
            do {
                let result = try body()
                try execute("RELEASE graphstore_nested")
                return result
            } catch {
                try? execute("ROLLBACK TO graphstore_nested")
                try? execute("RELEASE graphstore_nested")
                throw error
            }
        }
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Whether a transaction is open.
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Rows changed since the connection opened.
    var totalChanges: Int { Int(sqlite3_total_changes(handle)) }

    /// The rowid of the last inserted row.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Sets how long a statement waits for a lock before failing with `SQLITE_BUSY`.
    func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    // MARK: - Functions

    /// Registers an SQL function implemented in Swift.
    ///
    /// ```swift
    /// try db.registerFunction("DOUBLE_IT", argumentCount: 1) { args in
    ///     if case .integer(let v) = args[0] { return .integer(v * 2) }
    ///     return .null
    /// }
    /// ```
    /// - Parameter argumentCount: the number of arguments, or -1 for any number.
    /// - Throwing from `body` makes the SQL statement fail with the error's description.
    func registerFunction(
        _ name: String, argumentCount: Int32, deterministic: Bool = true,
        _ body: @escaping ([SQLiteValue]) throws -> SQLiteValue
    ) throws(SQLiteError) {
        // SQLite owns the context and frees it (xDestroy) when the function goes away.
        let context = CallbackContext.make(body)
        let flags = SQLITE_UTF8 | (deterministic ? SQLITE_DETERMINISTIC : 0)
        let rc = sqlite3_create_function_v2(
            handle, name, argumentCount, flags, context,
            { context, count, arguments in
                guard let context, let data = sqlite3_user_data(context) else { return }
                let body = CallbackContext.value(at: data, as: ScalarFunction.self)
                let values = (0..<Int(count)).map { i in SQLiteValue(sqlite: arguments?[i]) }
                do {
                    setResult(context, try body(values))
                } catch {
                    sqlite3_result_error(context, "\(error)", -1)
                }
            }, nil, nil, { data in data.map { CallbackContext.release($0, as: ScalarFunction.self) } })
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, connection: handle, sql: nil) }
    }

    // MARK: - Tracing

    /// Calls `body` with the text of each statement SQLite starts to run on this connection
    /// (as prepared, parameters as `?`), until called again with nil: what tests read to see
    /// which statement a fetch really ran.
    func traceStatements(_ body: ((String) -> Void)?) {
        if let context = traceContext {
            // Removed before its context is freed: SQLite calls back on this thread only.
            sqlite3_trace_v2(handle, 0, nil, nil)
            CallbackContext.release(context, as: StatementTrace.self)
            traceContext = nil
        }
        guard let body else { return }
        let context = CallbackContext.make(body)
        traceContext = context
        sqlite3_trace_v2(handle, UInt32(SQLITE_TRACE_STMT), { _, context, statement, _ in
            guard let context, let statement, let text = sqlite3_sql(OpaquePointer(statement)) else { return 0 }
            CallbackContext.value(at: context, as: StatementTrace.self)(String(cString: text))
            return 0
        }, context)
    }

    // MARK: - Schema

    /// Whether a table with this name exists.
    func tableExists(_ name: String) throws(SQLiteError) -> Bool {
        try scalar("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(name)]) != nil
    }
}

/// Whether a connection is open: shared by the connection and its statements, so that a
/// statement kept after its connection went away refuses to run (an error) rather than use
/// a connection that is gone. It also holds the check a statement makes before it starts,
/// if the connection has one (``Connection/checkBeforeEachStatement(_:)``).
final class ConnectionLifetime {
    var isOpen = true
    var beforeStatement: (() -> SQLiteError?)?
}

/// What a statement trace calls with each statement's text.
private typealias StatementTrace = (String) -> Void

/// A Swift function SQLite calls with its arguments as values.
private typealias ScalarFunction = ([SQLiteValue]) throws -> SQLiteValue

extension SQLiteValue {
    init(sqlite value: OpaquePointer?) {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: self = .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT: self = .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            let count = Int(sqlite3_value_bytes(value))
            self = sqlite3_value_text(value).map {
                .text(String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self))
            } ?? .text("")
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(value))
            self = sqlite3_value_blob(value).map { .blob(Data(bytes: $0, count: count)) } ?? .blob(Data())
        default: self = .null
        }
    }
}
