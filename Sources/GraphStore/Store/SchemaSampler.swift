/// The few stored values that reading a store's model looks at, before the store is open:
/// `Z_MODELCACHE`'s content, and a sample key of a column for schema inference. The SQL
/// stays in `Store/`; model readers ask for values.
///
/// Names come from the schema as it is, so they are quoted.
///
/// ```swift
/// let sampler = SchemaSampler(connection: connection)
/// let key = sampler.firstValue(in: "ZBOOK", column: "ZCATEGORY")   // .integer(3), or nil
/// ```
struct SchemaSampler {
    let connection: Connection

    /// The `Z_CONTENT` values of `Z_MODELCACHE` (normally one blob).
    func modelCacheContents() throws(SQLiteError) -> [SQLiteValue] {
        try connection.rows("SELECT Z_CONTENT FROM Z_MODELCACHE").compactMap(\.first)
    }

    /// The first non-NULL value of a column, or nil when every row holds NULL (or the query
    /// fails: a sample is a hint, never a requirement).
    func firstValue(in table: String, column: String) -> SQLiteValue? {
        let column = column.quotedSQLIdentifier
        return try? connection.scalar("SELECT \(column) FROM \(table.quotedSQLIdentifier) WHERE \(column) IS NOT NULL LIMIT 1")
    }

    /// The `Z_ENT` of the row with key `primaryKey` in a table, or nil when there is none.
    func entityNumber(in table: String, primaryKey: Int64) -> SQLiteValue? {
        try? connection.scalar("SELECT Z_ENT FROM \(table.quotedSQLIdentifier) WHERE Z_PK = ?", [.integer(primaryKey)])
    }
}

extension PersistentStore {
    /// The store's own values that model readers look at (see ``SchemaSampler``).
    var sampler: SchemaSampler { SchemaSampler(connection: connection) }
}
