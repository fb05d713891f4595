/// The read-only inspection API for fetches: the SQL a request compiles to and SQLite's
/// plan for it. The REPL's `.sql on` and `explain` use it; so can an app's diagnostics.
extension PersistentStore {
    /// The statement a request runs for a kind of result, with its bound values and the
    /// in-memory part of the predicate.
    ///
    /// This is the request on its own: a context with unsaved changes in the entity widens
    /// the window (no OFFSET, a larger LIMIT) to merge them in.
    public func sql(for request: FetchRequest, resultType: FetchResultType = .objects) throws -> GeneratedSQL {
        let query = try fetchQuery(for: request, resultType: resultType)
        return GeneratedSQL(sql: query.sql, bindings: query.bindings, inMemoryPredicate: query.residual, notes: query.notes)
    }

    /// SQLite's query plan for the statement ``sql(for:resultType:)`` returns.
    public func queryPlan(for request: FetchRequest, resultType: FetchResultType = .objects) throws -> QueryPlan {
        let generated = try sql(for: request, resultType: resultType)
        var steps: [QueryPlan.Step] = []
        try forEachRow(sql: "EXPLAIN QUERY PLAN " + generated.sql, bindings: generated.bindings) { statement in
            steps.append(QueryPlan.Step(id: Int(statement.int64(0)), parent: Int(statement.int64(1)), detail: statement.string(3) ?? ""))
            return true
        }
        return QueryPlan(sql: generated, steps: steps)
    }

    /// The query for a kind of result with the request's own window.
    func fetchQuery(for request: FetchRequest, resultType: FetchResultType) throws -> FetchQuery {
        let selection: FetchQuery.Selection
        switch resultType {
        case .objects: selection = request.fetchBatchSize > 0 ? .keys : .rows
        case .objectIDs: selection = .keys
        case .count: selection = .count
        case .dictionaries: selection = .properties
        }
        let query = try fetchQuery(for: request, selection: selection)
        guard query.residual != nil, selection != .rows else {
            return query.windowed(limit: request.fetchLimit, offset: request.fetchOffset)
        }
        // What SQL does not filter, it cannot count or window: the rows are read and
        // finished in memory.
        return try fetchQuery(for: request, selection: .rows)
    }
}
