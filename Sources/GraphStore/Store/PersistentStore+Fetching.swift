/// Running compiled fetches: rows streamed from a pooled statement, counts, and rows
/// read back by key for batched results.
extension PersistentStore {
    /// Registers the ``PredicateSQLFunction``s on the connection, once.
    func registerPredicateFunctionsIfNeeded() throws {
        guard !fetchSupport.functionsRegistered else { return }
        for function in PredicateSQLFunction.allCases {
            try connection.registerInPlaceFunction(function.name, argumentCount: function.argumentCount) { arguments in
                try function.call(arguments)
            }
        }
        fetchSupport.functionsRegistered = true
    }

    /// Runs `sql` and hands each row to `body` until it returns false.
    func forEachRow(sql: String, bindings: [SQLiteValue], _ body: (Statement) throws -> Bool) throws {
        try registerPredicateFunctionsIfNeeded()
        let statement = try fetchSupport.take(sql) ?? connection.prepare(sql)
        defer { fetchSupport.give(statement) }
        try statement.bind(bindings)
        while try statement.step() {
            if try !body(statement) { break }
        }
    }

    /// Runs a compiled fetch and hands each row to `body` until it returns false.
    func forEachRow(of query: FetchQuery, _ body: (Statement) throws -> Bool) throws {
        try forEachRow(sql: query.sql, bindings: query.bindings, body)
    }

    /// The single number a `COUNT(*)` query returns.
    func count(of query: FetchQuery) throws -> Int {
        var count = 0
        try forEachRow(of: query) { statement in
            count = Int(statement.int64(0))
            return false
        }
        return count
    }

    /// The rows of a family's table with these keys, by key (for batched results).
    func rows(withKeys keys: [Int64], family: [EntityMapping]) throws -> [Int64: StoredRow] {
        guard let first = family.first, !keys.isEmpty else { return [:] }
        let reader = RowReader(family: family)
        let sql = "SELECT \(reader.selectList(alias: "t0")) FROM \(first.table) t0 WHERE t0.Z_PK IN (\(placeholders(keys.count)))"
        var rows: [Int64: StoredRow] = [:]
        try forEachRow(sql: sql, bindings: keys.map { .integer($0) }) { statement in
            if let row = reader.read(statement) { rows[row.primaryKey] = row }
            return true
        }
        return rows
    }
}
