/// Counting matches without making objects.
extension ManagedObjectContext {
    /// How many objects a request would return (its offset and limit applied), unsaved
    /// changes included, without making objects: `SELECT COUNT(*)`, corrected for the
    /// changed and deleted objects SQL counted and the unsaved objects that match.
    ///
    /// When part of the predicate is evaluated in memory, the rows are read and the
    /// objects made to evaluate it (then let go, as ``enumerate(_:_:)`` does).
    ///
    /// ```swift
    /// let cheap = try context.count(for: FetchRequest(entityName: "Book", format: "price < 10"))
    /// ```
    public func count(for request: FetchRequest<some ManagedObject>) throws -> Int {
        let request = try resolvingObjectConstants(request.untyped)
        var unordered = request
        unordered.sortKeys = []
        let query = try store.fetchQuery(for: unordered, selection: .count)
        // With an in-memory part, the query reads rows (see `PersistentStore.fetchQuery(for:)`).
        guard query.residual == nil else { return try countInMemory(unordered, query) }
        let pending = try PendingFetchChanges(context: self, request: unordered, query: query)
        var total = try store.count(of: query)
        if !pending.isEmpty {
            let skipped = pending.changed.union(pending.deleted).compactMap(\.primaryKey)
            if !skipped.isEmpty { total -= try store.count(of: query.restricted(toKeys: skipped)) }
            total += pending.matches.count + pending.changedMatches.count
        }
        let afterOffset = max(0, total - request.fetchOffset)
        return request.fetchLimit.map { min($0, afterOffset) } ?? afterOffset
    }

    private func countInMemory(_ request: FetchRequest<ManagedObject>, _ rows: FetchQuery) throws -> Int {
        var count = 0
        try enumerate(request, rows) { _ in count += 1 }
        return count
    }
}
