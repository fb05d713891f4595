/// Reading a fetch's stored rows without making objects, when they alone give its answer.
extension ManagedObjectContext {
    /// Calls `body` with each stored row that matches the request, in its order and window,
    /// without making an object of it — when the rows alone give the answer
    /// ``enumerate(_:_:)`` would give: no unsaved change of the context bears on the fetch,
    /// the context holds no object (whose values it would show in place of its row's) and
    /// has no parent, and SQL decides the whole predicate. Returns false, having called
    /// nothing, when that does not hold; the caller then enumerates objects.
    ///
    /// A context that can save keeps the version of each row read, as ``enumerate(_:_:)``
    /// does when it lets go of an object: a later change to one of these objects still
    /// checks the version read here (see ``SeenVersions``).
    ///
    /// ```swift
    /// let request = try FetchRequest(entityName: "Book", format: "price < 10")
    /// let streamed = try context.enumerateStoredRows(request) { row in print(row.objectID) }
    /// if !streamed { try context.enumerate(request) { print($0.objectID) } }
    /// ```
    public func enumerateStoredRows(_ request: FetchRequest<ManagedObject>, _ body: (FetchedRow) throws -> Void) throws -> Bool {
        guard parent == nil, registered.isEmpty, borrowed.isEmpty else { return false }
        let request = try resolvingObjectConstants(request)
        let query = try fetchQuery(request, readsRows: true)
        guard query.residual == nil, try PendingFetchChanges(context: self, request: request, query: query).isEmpty else { return false }
        let recordsVersions = !store.isReadOnly
        try store.watchingInterrupts {
            try store.forEachRow(of: query.windowed(limit: request.fetchLimit, offset: request.fetchOffset)) { cursor in
                let number = cursor.entityNumber
                guard let layout = cursor.layout(entityNumber: number) else { return true }
                let key = cursor.primaryKey
                guard ObjectID.canHold(key) else { throw StoreError.rowKeyOutOfRange(entity: layout.mapping.name, key: key) }
                let row = FetchedRow(cursor: cursor, layout: layout)
                try body(row)
                if recordsVersions {
                    seenVersions.record(versionToCheck(number: number, key: key, read: cursor.version), number: number, key: key)
                }
                return true
            }
        }
        return true
    }
}
