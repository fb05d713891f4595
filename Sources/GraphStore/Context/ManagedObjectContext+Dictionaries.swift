/// Dictionary results: chosen properties of the matching rows, optionally distinct.
extension ManagedObjectContext {
    /// The ``FetchRequest/propertiesToFetch`` of the matching rows (every stored attribute
    /// and to-one relationship when none are named), one dictionary per row, nil values
    /// left out; repeated dictionaries once when ``FetchRequest/returnsDistinctResults``.
    ///
    /// As in Core Data, dictionaries reflect the store: unsaved changes do not count.
    ///
    /// ```swift
    /// var request = FetchRequest(entityName: "Book", sortKeys: [SortKey("category.name")])
    /// request.propertiesToFetch = ["category.name"]
    /// request.returnsDistinctResults = true
    /// let names = try context.fetchDictionaries(request).compactMap { $0["category.name"] }
    /// ```
    public func fetchDictionaries(_ request: FetchRequest<some ManagedObject>) throws -> [[String: FetchedValue]] {
        var request = request.untyped
        request.includesPendingChanges = false
        if request.propertiesToFetch.isEmpty { request.propertiesToFetch = try defaultProperties(of: request.entityName) }
        let query = try store.fetchQuery(for: request, selection: .properties)
        // With an in-memory part, the query reads rows (see `PersistentStore.fetchQuery(for:)`).
        guard query.residual == nil else { return try dictionariesInMemory(request, query) }
        var results: [[String: FetchedValue]] = []
        try store.forEachRow(of: query.windowed(limit: request.fetchLimit, offset: request.fetchOffset)) { row in
            results.append(try row.dictionary(of: query))
            return true
        }
        return results
    }

    /// Every stored attribute and to-one relationship, in model order.
    private func defaultProperties(of entityName: String) throws -> [String] {
        let mapping = try store.mapping(for: entityName)
        let attributes = mapping.attributes.filter { $0.column != nil }.map(\.attribute.name)
        let toOnes = mapping.relationships.filter { if case .foreignKey = $0.storage { true } else { false } }.map(\.relationship.name)
        return attributes + toOnes
    }

    /// With an in-memory residual: the rows are read in a context of their own (so the
    /// store's values decide, not this context's unsaved ones), filtered, then windowed.
    private func dictionariesInMemory(_ request: FetchRequest<ManagedObject>, _ rows: FetchQuery) throws -> [[String: FetchedValue]] {
        let scratch = ManagedObjectContext(store: store)
        var unwindowed = request
        unwindowed.fetchLimit = nil
        unwindowed.fetchOffset = 0
        var window = FetchWindow(offset: request.fetchOffset, limit: request.fetchLimit)
        var seen: Set<[String: FetchedValue]> = []
        var results: [[String: FetchedValue]] = []
        try scratch.runFetch(unwindowed, rows) { candidate in
            guard let object = candidate.object else { return true }
            let row = try ManagedObjectContext.dictionary(of: object, request.propertiesToFetch)
            if request.returnsDistinctResults, !seen.insert(row).inserted { return true }
            return try window.pass(candidate) { _ in
                results.append(row)
                return true
            }
        }
        return results
    }

    private static func dictionary(of object: ManagedObject, _ keyPaths: [String]) throws -> [String: FetchedValue] {
        var result: [String: FetchedValue] = [:]
        for keyPath in keyPaths {
            switch try object.predicateValue(forKeyPath: keyPath) {
            case .attribute(let value): result[keyPath] = .attribute(value)
            case .object(let destination):
                if let id = destination.objectIdentity?.base as? ObjectID { result[keyPath] = .objectID(id) }
            default: continue
            }
        }
        return result
    }
}
