/// The SQL a ``FetchRequest`` runs and SQLite's plan for it: the inspection API the REPL's
/// `.sql on` and `explain` use (so can an app's diagnostics). The query shown is compiled
/// once and kept by the store, so a fetch of the same request runs that very statement.
extension PersistentStore {
    /// The statement a request runs for a kind of result (the request's own
    /// ``FetchRequest/resultType`` when nil), with its bound values and the in-memory part of
    /// the predicate.
    ///
    /// This is the request on its own: a context with unsaved changes in the entity widens
    /// the window (no OFFSET, a larger LIMIT) to merge them in, and a key path read from a
    /// managed object given as a constant (`$book.price`) is read as the store holds it
    /// (a context reads it with its unsaved changes).
    ///
    /// ```swift
    /// let generated = try store.sql(for: request, resultType: .count)
    /// print(generated.sql)        // the statement context.count(for: request) runs
    /// ```
    public func sql(for request: FetchRequest<some ManagedObject>, resultType: FetchResultType? = nil) throws -> GeneratedSQL {
        var request = request.untyped
        if request.predicate?.readsObjectConstants == true { request = try ManagedObjectContext(store: self).resolvingObjectConstants(request) }
        return GeneratedSQL(try fetchQuery(for: request, resultType: resultType ?? request.resultType))
    }

    /// SQLite's query plan for the statement ``sql(for:resultType:)`` returns.
    ///
    /// ```swift
    /// print(try store.queryPlan(for: request).text)   // QUERY PLAN / `--SEARCH t0 USING INDEX …
    /// ```
    public func queryPlan(for request: FetchRequest<some ManagedObject>, resultType: FetchResultType? = nil) throws -> QueryPlan {
        let generated = try sql(for: request, resultType: resultType)
        return QueryPlan(sql: generated, steps: try queryPlanSteps(of: generated))
    }

    /// The query for a kind of result with the request's own window.
    func fetchQuery(for request: FetchRequest<ManagedObject>, resultType: FetchResultType) throws -> FetchQuery {
        let selection: FetchQuery.Selection
        switch resultType {
        case .objects: selection = request.fetchBatchSize > 0 ? .keys : .rows
        case .objectIDs: selection = .keys
        case .count: selection = .count
        case .dictionary: selection = .properties
        }
        let query = try fetchQuery(for: request, selection: selection)
        // Groups a having predicate drops in memory are not windowed by SQL either.
        if selection == .properties, request.havingPredicate != nil { return query }
        // What SQL does not filter, it cannot count or window: a query with an in-memory
        // part reads rows (see `fetchQuery(for:)`), and they are finished in memory.
        guard query.residual != nil, selection != .rows else {
            return query.windowed(limit: request.fetchLimit, offset: request.fetchOffset)
        }
        return query
    }

    /// The compiled query of a request for one kind of row (after checking its window).
    func fetchQuery(for request: FetchRequest<ManagedObject>, selection: FetchQuery.Selection) throws -> FetchQuery {
        try request.validate()
        return try fetchQuery(for: request.definition(selection))
    }
}

extension FetchRequest {
    /// What the store compiles for this request (everything but the window).
    func definition(_ selection: FetchQuery.Selection) -> QueryDefinition {
        QueryDefinition(
            entityName: entityName, predicate: predicate, sortKeys: sortKeys, includesSubentities: includesSubentities,
            propertiesToFetch: propertiesToFetch, propertiesToGroupBy: propertiesToGroupBy,
            returnsDistinctResults: returnsDistinctResults, selection: selection)
    }
}
