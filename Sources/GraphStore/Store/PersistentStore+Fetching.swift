/// Running compiled fetches: rows streamed from a pooled statement, counts, and rows
/// read back by key for batched results.
extension PersistentStore {
    /// Registers the ``PredicateSQLFunction``s on the connection, once. What a function
    /// throws is kept for ``step(_:)``, and still fails the statement.
    func registerPredicateFunctionsIfNeeded() throws {
        guard !fetchSupport.functionsRegistered else { return }
        let support = fetchSupport
        for function in PredicateSQLFunction.allCases {
            // The support is held weakly: SQLite keeps the function until the connection really
            // closes, and the support keeps idle statements, which keep the connection from
            // closing (it would never close, nor fold its write-ahead log back into the file).
            try connection.registerInPlaceFunction(function.name, argumentCount: function.argumentCount) { [weak support] arguments in
                do {
                    return try function.call(arguments)
                } catch {
                    support?.functionError = error
                    throw error
                }
            }
        }
        fetchSupport.functionsRegistered = true
    }

    /// Runs `sql` and hands each row to `body` until it returns false. Regular expression
    /// matches on the way, in SQL or in `body`, stop when the store is interrupted.
    func forEachRow(sql: String, bindings: [SQLiteValue], _ body: (Statement) throws -> Bool) throws {
        try withFetchStatement(sql, bindings) { statement in
            while try step(statement) {
                if try !body(statement) { break }
            }
        }
    }

    /// Runs `body` with a fetch statement for `sql` (an idle one from the pool, or a new
    /// one), bound to `bindings`, the predicate functions registered and interrupts watched.
    private func withFetchStatement(_ sql: String, _ bindings: [SQLiteValue], _ body: (Statement) throws -> Void) throws {
        try watchingInterrupts {
            try registerPredicateFunctionsIfNeeded()
            let statement = try fetchSupport.take(sql) ?? connection.prepare(sql)
            defer { fetchSupport.give(statement) }
            try statement.bind(bindings)
            try body(statement)
        }
    }

    /// Runs `body` with the store's ``MatchInterruption`` watched by every MATCHES on the
    /// thread (an interrupt from before the outermost call is forgotten, as SQLite does),
    /// and with a ``MatchBudget``: the one it runs inside, or one for this operation.
    func watchingInterrupts<Result>(_ body: () throws -> Result) rethrows -> Result {
        try MatchBudget.forOperation { try fetchSupport.interruption.watching(body) }
    }

    /// Steps a fetch statement; when a predicate function failed it, throws what the
    /// function threw.
    private func step(_ statement: Statement) throws -> Bool {
        fetchSupport.functionError = nil
        do {
            return try statement.step()
        } catch {
            if let thrown = fetchSupport.functionError {
                fetchSupport.functionError = nil
                throw thrown
            }
            throw error
        }
    }

    /// Runs a compiled query and hands its cursor, on each row in turn, to `body` until it
    /// returns false (see ``RowCursor``).
    func forEachRow(of query: FetchQuery, _ body: (RowCursor) throws -> Bool) throws {
        try withFetchStatement(query.sql, query.bindings) { statement in
            let cursor = RowCursor(
                statement: statement, store: self, family: query.family, reader: query.reader, sortStart: query.sortStart, sortCount: query.sorts.count)
            while try step(statement) {
                if try !body(cursor) { break }
            }
        }
    }

    /// The single number a `COUNT(*)` query returns.
    func count(of query: FetchQuery) throws -> Int {
        var count = 0
        try forEachRow(sql: query.sql, bindings: query.bindings) { statement in
            count = Int(statement.int64(0))
            return false
        }
        return count
    }

    /// The rows of a family's table with these keys, by key (for batched results).
    func rows(withKeys keys: [Int64], family: [EntityMapping]) throws -> [Int64: StoredRow] {
        guard let first = family.first, !keys.isEmpty else { return [:] }
        let reader = rowReader(family: family)
        let sql = "SELECT \(reader.selectList(alias: "t0")) FROM \(first.table) t0 WHERE \(first.keys.integer("Z_PK", alias: "t0")) IN (\(placeholders(keys.count)))"
        var rows: [Int64: StoredRow] = [:]
        try withFetchStatement(sql, keys.map { .integer($0) }) { statement in
            let cursor = RowCursor(statement: statement, store: self, family: family, reader: reader)
            while try step(statement) {
                if let row = cursor.storedRow() { rows[row.primaryKey] = row }
            }
        }
        return rows
    }
}
