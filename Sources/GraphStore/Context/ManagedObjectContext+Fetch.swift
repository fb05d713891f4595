/// Fetching objects and object IDs with a ``FetchRequest``.
extension ManagedObjectContext {
    /// The objects that match a request, in its order and window, unsaved changes included
    /// (see ``FetchRequest/includesPendingChanges``).
    ///
    /// ```swift
    /// let request = try FetchRequest(entityName: "Book", format: "category.name == %@", "Fiction")
    /// for book in try context.fetch(request) { print(try book.get("title", as: String.self) ?? "") }
    /// ```
    public func fetch(_ request: FetchRequest<ManagedObject>) throws -> FetchedObjects {
        let request = try resolvingObjectConstants(request)
        var entries: [FetchedObjects.Entry] = []
        try runFetch(request, try fetchQuery(request, readsRows: request.fetchBatchSize == 0)) { candidate in
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
    public func fetchObjectIDs(_ request: FetchRequest<some ManagedObject>) throws -> [ObjectID] {
        let request = try resolvingObjectConstants(request.untyped)
        var ids: [ObjectID] = []
        try runFetch(request, try fetchQuery(request, readsRows: false)) { candidate in
            ids.append(candidate.id)
            return true
        }
        return ids
    }

    /// Calls `body` with each matching object in order, reading rows as it goes, and lets
    /// go of each object it made as soon as the next row is read, unless something else
    /// holds it or it has changes (Core Data keeps such objects only weakly). Memory stays
    /// flat however many objects there are.
    ///
    /// ```swift
    /// var total = 0
    /// try context.enumerate(FetchRequest(entityName: "Word")) { word in
    ///     total += Int(try word.get("length", as: Int64.self) ?? 0)
    /// }
    /// ```
    public func enumerate(_ request: FetchRequest<ManagedObject>, _ body: (ManagedObject) throws -> Void) throws {
        let request = try resolvingObjectConstants(request)
        try enumerate(request, try fetchQuery(request, readsRows: true), body)
    }

    /// ``enumerate(_:_:)`` with the request's `.rows` query compiled already.
    func enumerate(_ request: FetchRequest<ManagedObject>, _ query: FetchQuery, _ body: (ManagedObject) throws -> Void) throws {
        // The object made for the previous row, by entity number and key (plain integers: no
        // reference kept). It is let go of once the next row has been read, when nothing of
        // the fetch holds it any more. Letting go of each object right away, rather than a
        // thousand at a time, lets the allocator hand the same (cache-warm) memory to the
        // next object instead of freeing and reallocating a thousand blocks per batch.
        var previous: (number: Int, key: Int64)?
        defer { if let previous { releaseUnreferenced(number: previous.number, key: previous.key) } }
        try runFetch(request, query) { candidate in
            if let last = previous {
                previous = nil
                releaseUnreferenced(number: last.number, key: last.key)
            }
            guard let object = candidate.object else { return true }
            if candidate.isNew { previous = (object.objectID.mapping.number, candidate.rank.key) }
            try body(object)
            return true
        }
    }

    /// Unregisters the object of entity `number` with key `key` if nothing outside the
    /// context holds it and it has no unsaved changes (Core Data keeps such objects only
    /// weakly). A context that can save keeps the version it read (see ``SeenVersions``).
    func releaseUnreferenced(number: Int, key: Int64) {
        // Let go of the object after the table has been changed, not during.
        guard let released = registered.removeIfUnreferenced(number: number, key: key), !store.isReadOnly else { return }
        seenVersions.record(released.version, number: number, key: key)
    }
}
