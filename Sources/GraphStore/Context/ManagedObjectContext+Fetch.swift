/// Fetching objects and object IDs with a ``FetchRequest``.
extension ManagedObjectContext {
    /// The objects that match a request, in its order and window, unsaved changes included
    /// (see ``FetchRequest/includesPendingChanges``).
    ///
    /// ```swift
    /// let request = try FetchRequest(entityName: "Book", format: "category.name == %@", "Fiction")
    /// for book in try context.fetch(request) { print(try book.get("title", as: String.self) ?? "") }
    /// ```
    public func fetch(_ request: FetchRequest) throws -> FetchedObjects {
        var entries: [FetchedObjects.Entry] = []
        try runFetch(request, readsRows: request.fetchBatchSize == 0) { candidate in
            entries.append(FetchedObjects.Entry(candidate))
            return true
        }
        let family = store.family(of: try store.mapping(for: request.entityName))
        return FetchedObjects(context: self, entries: entries, batchSize: request.fetchBatchSize, family: family)
    }

    /// The IDs of the objects that match a request, without reading their rows (unless the
    /// predicate has a part evaluated in memory).
    ///
    /// ```swift
    /// let ids = try context.fetchObjectIDs(FetchRequest(entityName: "Book"))
    /// ```
    public func fetchObjectIDs(_ request: FetchRequest) throws -> [ObjectID] {
        var ids: [ObjectID] = []
        try runFetch(request, readsRows: false) { candidate in
            ids.append(candidate.id)
            return true
        }
        return ids
    }

    /// Calls `body` with each matching object in order, reading rows as it goes, and lets
    /// go of the objects it made once a batch (``FetchRequest/fetchBatchSize``, 1000 by
    /// default) has been handed out, unless something else holds them or they have
    /// changes. Memory stays flat however many objects there are.
    ///
    /// ```swift
    /// var total = 0
    /// try context.enumerate(FetchRequest(entityName: "Word")) { word in
    ///     total += Int(try word.get("length", as: Int64.self) ?? 0)
    /// }
    /// ```
    public func enumerate(_ request: FetchRequest, _ body: (ManagedObject) throws -> Void) throws {
        let batchSize = request.fetchBatchSize > 0 ? request.fetchBatchSize : 1000
        // The objects made by this enumeration, by entity number and key: plain integers, so
        // that keeping the list costs no retains and does not hold the objects.
        var fresh: [(number: Int, key: Int64)] = []
        fresh.reserveCapacity(batchSize)
        try runFetch(request, readsRows: true) { candidate in
            if fresh.count >= batchSize {
                releaseUnreferenced(fresh)
                fresh.removeAll(keepingCapacity: true)
            }
            guard let object = candidate.object else { return true }
            if candidate.isNew { fresh.append((object.objectID.mapping.number, candidate.rank.key)) }
            try body(object)
            return true
        }
        releaseUnreferenced(fresh)
    }

    /// Unregisters the objects with these keys that nothing outside the context holds and
    /// that have no unsaved changes (Core Data keeps such objects only weakly).
    func releaseUnreferenced(_ keys: [(number: Int, key: Int64)]) {
        for (number, key) in keys {
            // Let go of the object after the table has been changed, not during.
            let released = registered.removeIfUnreferenced(number: number, key: key)
            _ = released
        }
    }
}
