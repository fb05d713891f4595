import CSQLite

/// SQL typed by a person, allowed to read only: while it is prepared, an SQLite authorizer
/// refuses every action but reading (SELECT, reading a column, calling a function, a
/// recursive CTE, and the PRAGMAs that only report), and a statement SQLite still says
/// writes (`sqlite3_stmt_readonly`) is refused too. So `DELETE FROM ZBOOK` never runs, on a
/// store opened read-only or for writing, and not one byte of the file changes.
///
/// `ATTACH` is not refused but run by GraphStore itself, read-only (``AttachedFiles``).
///
/// PRAGMAs are judged by name, as `sqlite3_stmt_readonly` cannot judge them: it calls
/// `PRAGMA journal_mode` (which only reports without an argument) a write, and
/// `PRAGMA optimize` (which may run ANALYZE) a read. A PRAGMA is allowed when it is listed
/// here as reporting; `PRAGMA x = v` never is, and neither are those that act with no
/// argument at all: `optimize`, `wal_checkpoint`, `incremental_vacuum`, `shrink_memory`.
struct ReadOnlySQL {
    /// The PRAGMAs that report without changing anything, with or without an argument
    /// (a table's or an index's name, a number of errors to list).
    static let reportingPragmas: Set<String> = [
        "table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo", "foreign_key_list",
        "foreign_key_check", "integrity_check", "quick_check",
    ]
    /// The PRAGMAs that only report when given no argument (with one, they set): the
    /// file's settings and the connection's.
    static let queryPragmas: Set<String> = [
        "database_list", "collation_list", "function_list", "module_list", "pragma_list", "compile_options",
        "page_count", "page_size", "freelist_count", "schema_version", "user_version", "application_id",
        "data_version", "encoding", "auto_vacuum", "journal_mode", "journal_size_limit", "locking_mode", "synchronous",
        "wal_autocheckpoint", "cache_size", "cache_spill", "mmap_size", "max_page_count", "busy_timeout", "secure_delete",
        "temp_store", "query_only", "foreign_keys", "defer_foreign_keys", "recursive_triggers", "automatic_index",
        "cell_size_check", "ignore_check_constraints", "legacy_alter_table", "reverse_unordered_selects",
        "read_uncommitted", "trusted_schema", "fullfsync", "checkpoint_fullfsync", "analysis_limit", "threads",
        "soft_heap_limit", "hard_heap_limit",
    ]

    /// Whether the authorizer lets `PRAGMA name` run, given its argument (nil without one).
    static func allowsPragma(_ name: String, argument: String?) -> Bool {
        let pragma = name.lowercased()
        return reportingPragmas.contains(pragma) || (argument == nil && queryPragmas.contains(pragma))
    }

    /// What the authorizer saw and refused, for the message.
    private final class Refusal {
        var action: String?
        /// A PRAGMA the authorizer allowed by name.
        var allowedPragma: String?
    }

    /// Runs the one statement `sql` holds on `connection` (refusing anything that is not a
    /// read), or the `ATTACH` or `DETACH` it is (see ``AttachedFiles``), and hands its
    /// column names, then each row, over.
    static func forEachRow(
        _ sql: String, on connection: Connection, attaching files: AttachedFiles, besides main: StoreFile.Opened,
        columns: ([String]) throws -> Void, row body: ([SQLiteValue]) throws -> Void
    ) throws {
        if let attach = try AttachStatement.parse(sql) { return try files.run(attach, on: connection, besides: main) }
        let statement = try prepare(sql, on: connection)
        try columns(statement.columnNames)
        while try statement.step() { try body(statement.row()) }
    }

    /// The query of a table's rows as they are stored, in row order; `limit` rows at most.
    static func rows(of table: DatabaseSchema.Table, limit: Int?) -> String {
        let quoted = table.name.quotedSQLIdentifier
        let ordered = table.sql.uppercased().contains("WITHOUT ROWID") ? "" : " ORDER BY rowid"
        let limited = limit.map { " LIMIT \($0)" } ?? ""
        return "SELECT * FROM \(quoted)\(ordered)\(limited)"
    }

    /// Prepares the one statement `sql` holds on `connection`, refusing anything that is
    /// not a read.
    static func prepare(_ sql: String, on connection: Connection) throws -> Statement {
        let first = try firstStatement(of: sql, on: connection)
        let refusal = Refusal()
        let statement: Statement
        sqlite3_set_authorizer(connection.handle, authorize, Unmanaged.passUnretained(refusal).toOpaque())
        defer { sqlite3_set_authorizer(connection.handle, nil, nil) }
        // The statement's first word names what a change to the schema itself does (CREATE,
        // not the INSERT into sqlite_master SQLite checks first).
        let verb = String(first.drop { $0.isWhitespace }.prefix { !$0.isWhitespace }).uppercased()
        do {
            statement = try connection.prepare(first)
        } catch {
            if let action = refusal.action { throw ReadOnlySQLError.notReadOnly(action: action.hasPrefix("schema") ? verb : action) }
            throw error
        }
        // A reporting PRAGMA was allowed by name, which is what decides for PRAGMAs.
        if verb == "PRAGMA", refusal.allowedPragma != nil { return statement }
        guard sqlite3_stmt_readonly(statement.handle) != 0 else { throw ReadOnlySQLError.notReadOnly(action: verb) }
        return statement
    }

    /// The text of the first statement; an error when another one follows it.
    private static func firstStatement(of sql: String, on connection: Connection) throws -> String {
        let first = nextStatement(in: sql, on: connection)
        if let error = first.error { throw error }
        guard first.found else { throw ReadOnlySQLError.noStatement }
        var rest = first.rest
        // What follows may be only spaces, `;` and comments.
        while !rest.allSatisfy({ $0.isWhitespace || $0 == ";" }) {
            let next = nextStatement(in: rest, on: connection)
            if next.found || next.error != nil { throw ReadOnlySQLError.severalStatements }
            guard next.rest.utf8.count < rest.utf8.count else { break }
            rest = next.rest
        }
        return first.text
    }

    /// The statement at the start of `sql` as SQLite reads it — prepared without the
    /// authorizer only to find where it ends, and finalized unrun: whether there is one,
    /// the error preparing it gave, its text, and the text after it.
    private static func nextStatement(in sql: String, on connection: Connection) -> (found: Bool, error: SQLiteError?, text: String, rest: String) {
        withSQLiteText(sql) { text, length in
            var handle: OpaquePointer?
            var tail: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v2(connection.handle, text, Int32(clamping: length), &handle, &tail)
            defer { sqlite3_finalize(handle) }
            let error = rc == SQLITE_OK ? nil : SQLiteError(code: rc, connection: connection.handle, sql: sql)
            let end = tail.map { $0 - text } ?? Int(length)
            let head = String(decoding: UnsafeRawBufferPointer(start: text, count: end), as: UTF8.self)
            let rest = String(decoding: UnsafeRawBufferPointer(start: text + end, count: Int(length) - end), as: UTF8.self)
            return (handle != nil, error, head, rest)
        }
    }

    /// The authorizer: reads pass, everything else is refused and remembered.
    private static let authorize: @convention(c) (
        UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?
    ) -> Int32 = { data, action, first, second, _, _ in
        let name = first.map { String(cString: $0) }
        let argument = second.map { String(cString: $0) }
        switch action {
        case SQLITE_SELECT, SQLITE_READ, SQLITE_FUNCTION, SQLITE_RECURSIVE:
            return SQLITE_OK
        case SQLITE_PRAGMA:
            if let name, allowsPragma(name, argument: argument) {
                if let data { Unmanaged<Refusal>.fromOpaque(data).takeUnretainedValue().allowedPragma = name }
                return SQLITE_OK
            }
        default:
            break
        }
        if let data {
            // The first refusal says what the statement does (CREATE, not the INSERT into the schema after it).
            let refusal = Unmanaged<Refusal>.fromOpaque(data).takeUnretainedValue()
            if refusal.action == nil { refusal.action = describe(action, name, argument) }
        }
        return SQLITE_DENY
    }

    /// `DELETE on ZBOOK`, `PRAGMA journal_mode = DELETE`, `BEGIN`: what was refused.
    private static func describe(_ action: Int32, _ name: String?, _ argument: String?) -> String {
        if let name, ["sqlite_master", "sqlite_temp_master", "sqlite_schema", "sqlite_temp_schema"].contains(name.lowercased()) {
            return "schema"
        }
        let on = name.map { " on \($0)" } ?? ""
        switch action {
        case SQLITE_INSERT: return "INSERT" + on
        case SQLITE_UPDATE: return "UPDATE" + on
        case SQLITE_DELETE: return "DELETE" + on
        case SQLITE_PRAGMA: return "PRAGMA \(name ?? "")" + (argument.map { " = \($0)" } ?? "")
        case SQLITE_TRANSACTION, SQLITE_SAVEPOINT: return name ?? "a transaction"
        case SQLITE_ATTACH: return "ATTACH"
        case SQLITE_DETACH: return "DETACH"
        case SQLITE_ALTER_TABLE: return "ALTER TABLE" + (argument.map { " on \($0)" } ?? "")
        case SQLITE_ANALYZE: return "ANALYZE"
        case SQLITE_REINDEX: return "REINDEX"
        case SQLITE_CREATE_INDEX...SQLITE_CREATE_VIEW, SQLITE_CREATE_VTABLE: return "CREATE" + (name.map { " \($0)" } ?? "")
        case SQLITE_DROP_INDEX...SQLITE_DROP_VIEW, SQLITE_DROP_VTABLE: return "DROP" + (name.map { " \($0)" } ?? "")
        default: return "action \(action)"
        }
    }
}

/// Why SQL given to ``PersistentStore/forEachRow(readOnlySQL:columns:row:)`` was not run.
///
/// ```swift
/// do { try store.forEachRow(readOnlySQL: "DELETE FROM ZBOOK") { _ in } }
/// catch let error as ReadOnlySQLError { print(error) }   // only reading SQL may run: DELETE on ZBOOK writes …
/// ```
public enum ReadOnlySQLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The statement would change something (`action` says what); SQLite refused it.
    case notReadOnly(action: String)
    /// More than one statement was given.
    case severalStatements
    /// No statement was given (nothing, or only a comment).
    case noStatement
    /// No table of that name is in the file; `tables` are the ones that are.
    case noSuchTable(String, tables: [String])
    /// An `ATTACH` not of the form GraphStore runs: `ATTACH [DATABASE] 'path' AS name`.
    case attachForm
    /// The file at `path` may not be attached: `reason` says why (it does not exist, it is
    /// the store's own file, it is no file).
    case attachRefused(path: String, reason: String)
    /// The database `name` may not be detached (SQLite's `reason`: there is none of that
    /// name, it is `main`).
    case detachRefused(name: String, reason: String)

    public var description: String {
        switch self {
        case .notReadOnly(let action):
            "only reading SQL may run: \(action) would change the store, so SQLite refused it (nothing was changed)"
        case .severalStatements:
            "one SQL statement at a time"
        case .noStatement:
            "no SQL statement to run"
        case .noSuchTable(let name, let tables):
            "no table named \(name); tables: \(tables.joined(separator: ", "))"
        case .attachForm:
            "ATTACH takes the file's path in quotes and a name: ATTACH 'seed.sqlite' AS seed (and DETACH a name: DETACH seed)"
        case .attachRefused(let path, let reason):
            "cannot attach \(path): \(reason)"
        case .detachRefused(let name, let reason):
            "cannot detach \(name): \(reason)"
        }
    }
}
