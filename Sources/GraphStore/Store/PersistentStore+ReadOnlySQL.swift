/// Read-only SQL on the store's file, and the rows of any of its tables: `Z_PRIMARYKEY`,
/// `Z_METADATA`, join tables, the persistent-history tables, as stored.
///
/// The SQL runs on the store's own connection, so it sees what the store sees (a read-only
/// store with a write-ahead log is read from its private copy), and it may only read (see
/// ``ReadOnlySQLError``): a statement that would write is refused by SQLite before it runs.
extension PersistentStore {
    /// Runs one read-only SQL statement and hands its column names, then each row, over.
    ///
    /// ```swift
    /// try store.forEachRow(readOnlySQL: "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY", columns: { print($0) }) { row in
    ///     print(row)        // [.text("Book"), .integer(3)]
    /// }
    /// ```
    ///
    /// - Throws: ``ReadOnlySQLError`` for a statement that is not one read; `SQLiteError`
    ///   for SQL SQLite cannot run (a syntax error, no such table, an interrupt).
    public func forEachRow(
        readOnlySQL sql: String, columns: ([String]) throws -> Void = { _ in }, row body: ([SQLiteValue]) throws -> Void
    ) throws {
        try watchingInterrupts {
            try registerPredicateFunctionsIfNeeded()
            let statement = try ReadOnlySQL.prepare(sql, on: connection)
            try columns(statement.columnNames)
            while try statement.step() { try body(statement.row()) }
        }
    }

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
        let quoted = "\"" + table.name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        let ordered = table.sql.uppercased().contains("WITHOUT ROWID") ? "" : " ORDER BY rowid"
        let limited = limit.map { " LIMIT \($0)" } ?? ""
        try forEachRow(readOnlySQL: "SELECT * FROM \(quoted)\(ordered)\(limited)", columns: columns, row: body)
    }
}
