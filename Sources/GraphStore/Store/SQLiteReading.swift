/// What can be read of an SQLite file as SQLite keeps it, whether it is a Core Data store
/// (``PersistentStore``) or not (``PlainSQLiteFile``): its tables and their rows, and read-only
/// SQL, which may attach other files read-only (`ATTACH 'seed.sqlite' AS seed`).
///
/// ```swift
/// let file: any SQLiteReading = try PlainSQLiteFile(path: "banklist.sqlite3")
/// print(file.tableNames)                                   // ["banklist"]
/// try file.forEachRow(ofTable: "banklist", limit: 3, columns: { print($0) }) { print($0) }
/// ```
public protocol SQLiteReading: AnyObject {
    /// The file's path, as given (messages name the file by it).
    var path: String { get }
    /// The file's tables, columns and indexes.
    var schema: DatabaseSchema { get }
    /// Stops the SQL the file is running, from another thread or a signal handler.
    var interrupter: StoreInterrupter { get }
    /// Runs one read-only SQL statement (or an `ATTACH`, a `DETACH`) and hands its column
    /// names, then each row, over (see ``ReadOnlySQLError``).
    func forEachRow(readOnlySQL sql: String, columns: ([String]) throws -> Void, row body: ([SQLiteValue]) throws -> Void) throws
}

extension SQLiteReading {
    /// The names of the file's tables (SQLite's own `sqlite_` tables left out), sorted.
    public var tableNames: [String] {
        schema.tables.values.map(\.name).filter { !$0.lowercased().hasPrefix("sqlite_") }.sorted()
    }

    /// Streams the rows of a table of the file, named in any case, as they are stored, in
    /// row order; `limit` rows at most.
    ///
    /// ```swift
    /// try store.forEachRow(ofTable: "z_primarykey", columns: { print($0) }) { print($0) }
    /// ```
    ///
    /// - Throws: ``ReadOnlySQLError/noSuchTable(_:tables:)`` when the file has no such table.
    public func forEachRow(
        ofTable name: String, limit: Int? = nil, columns: ([String]) throws -> Void = { _ in }, row body: ([SQLiteValue]) throws -> Void
    ) throws {
        guard let table = schema.table(name), !table.name.lowercased().hasPrefix("sqlite_") else {
            throw ReadOnlySQLError.noSuchTable(name, tables: tableNames)
        }
        try forEachRow(readOnlySQL: ReadOnlySQL.rows(of: table, limit: limit), columns: columns, row: body)
    }
}
