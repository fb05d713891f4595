/// Read-only SQL on the store's file, and the rows of any of its tables: `Z_PRIMARYKEY`,
/// `Z_METADATA`, join tables, the persistent-history tables, as stored.
///
/// The SQL runs on the store's own connection, so it sees what the store sees (a read-only
/// store with a write-ahead log reads it in place, or from its private copy), and it may only read (see
/// ``ReadOnlySQLError``): a statement that would write is refused by SQLite before it runs.
/// `ATTACH 'other.sqlite' AS other` attaches another file, read-only, for queries over both.
extension PersistentStore: SQLiteReading {
    /// Runs one read-only SQL statement and hands its column names, then each row, over.
    /// `ATTACH [DATABASE] 'path' AS name` attaches another file read-only (it must exist,
    /// and not be this store's), `DETACH name` lets it go; neither gives rows.
    ///
    /// ```swift
    /// try store.forEachRow(readOnlySQL: "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY", columns: { print($0) }) { row in
    ///     print(row)        // [.text("Book"), .integer(3)]
    /// }
    /// try store.forEachRow(readOnlySQL: "ATTACH 'seed.sqlite' AS seed") { _ in }
    /// try store.forEachRow(readOnlySQL: "SELECT count(*) FROM seed.ZBOOK") { print($0) }
    /// ```
    ///
    /// - Throws: ``ReadOnlySQLError`` for a statement that is not one read or an ATTACH
    ///   refused; `SQLiteError` for SQL SQLite cannot run (a syntax error, no such table, an
    ///   interrupt); ``StoreError`` for a file ATTACH cannot read.
    public func forEachRow(
        readOnlySQL sql: String, columns: ([String]) throws -> Void = { _ in }, row body: ([SQLiteValue]) throws -> Void
    ) throws {
        try watchingInterrupts {
            try registerPredicateFunctionsIfNeeded()
            try ReadOnlySQL.forEachRow(sql, on: connection, attaching: attachedFiles, besides: file, columns: columns, row: body)
        }
    }
}
