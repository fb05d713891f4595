/// Dictionary results: chosen properties of the matching rows, optionally distinct, grouped
/// and aggregated.
extension ManagedObjectContext {
    /// The ``FetchRequest/propertiesToFetch`` of the matching rows (every stored attribute
    /// and to-one relationship when none are named), one dictionary per row, nil values
    /// left out; repeated dictionaries once when ``FetchRequest/returnsDistinctResults``.
    /// A to-one's value is the destination's ``ObjectID`` as the row stores it, the ID the
    /// object's ``ManagedObject/objectID(forKey:)`` gives, also when no such row exists.
    ///
    /// With aggregates (``ExpressionDescription``) and ``FetchRequest/propertiesToGroupBy``,
    /// one dictionary per group, computed by one SQL query (`GROUP BY`), no object made; the
    /// ``FetchRequest/havingPredicate`` then keeps the groups it matches (a string compared
    /// with a date entry is an ISO 8601 date, UTC when it names no zone). A sort key may
    /// name an aggregate. When the predicate has a part SQL cannot express, the matching
    /// objects are grouped in memory instead, with SQLite's arithmetic and order.
    ///
    /// As in Core Data, dictionaries reflect the store: unsaved changes do not count.
    ///
    /// ```swift
    /// var request = FetchRequest(entityName: "Book", sortKeys: [SortKey("category.name")])
    /// request.propertiesToFetch = ["category.name"]
    /// request.returnsDistinctResults = true
    /// let names = try context.fetchDictionaries(request).compactMap { $0["category.name"] }
    /// ```
    public func fetchDictionaries(_ request: FetchRequest<some ManagedObject>) throws -> [FetchedDictionary] {
        var request = try resolvingObjectConstants(request.untyped)
        request.includesPendingChanges = false
        if request.propertiesToFetch.isEmpty { request.propertiesToFetch = try defaultProperties(of: request.entityName) }
        let query = try store.fetchQuery(for: request, resultType: .dictionary)
        // With an in-memory part, the query reads rows (see `PersistentStore.fetchQuery(for:)`).
        guard query.residual == nil else {
            if request.isGrouped { return try groupedInMemory(request) }
            return try dictionariesInMemory(request, query)
        }
        var results: [FetchedDictionary] = []
        let layout = FetchedDictionary.Layout(query.properties.map(\.name))
        try store.forEachRow(of: query) { row in
            results.append(try row.dictionary(of: query, layout))
            return true
        }
        guard let having = try DictionaryGrouping.having(of: request, types: query.properties) else { return results }
        return DictionaryGrouping.window(try results.filter { try DictionaryGrouping.matches(having, $0) }, request)
    }

    /// A grouped or aggregated dictionary fetch computed in memory from the matching objects
    /// (what ``fetchDictionaries(_:)`` does when SQL cannot filter them; tests compare the
    /// two).
    func groupedInMemory(_ request: FetchRequest<ManagedObject>) throws -> [FetchedDictionary] {
        var request = request
        request.includesPendingChanges = false
        // The result types are those the SQL query would decode with.
        var unfiltered = request
        unfiltered.predicate = nil
        let types = try store.fetchQuery(for: unfiltered, selection: .properties).properties
        let scratch = ManagedObjectContext(store: store)
        var rows = request
        rows.fetchLimit = nil
        rows.fetchOffset = 0
        rows.sortKeys = []
        rows.resultType = .objects
        var grouping = DictionaryGrouping(request: request, types: types)
        try scratch.enumerate(rows) { object in
            try grouping.add(try ManagedObjectContext.values(of: object, grouping.keyPaths))
        }
        var results = try grouping.results()
        if let having = try DictionaryGrouping.having(of: request, types: types) { results = try results.filter { try DictionaryGrouping.matches(having, $0) } }
        return DictionaryGrouping.window(DictionaryGrouping.sorted(results, by: request.sortKeys), request)
    }

    /// Every stored attribute and to-one relationship, in model order.
    private func defaultProperties(of entityName: String) throws -> [FetchProperty] {
        let mapping = try store.mapping(for: entityName)
        let attributes = mapping.attributes.filter { $0.column != nil }.map(\.attribute.name)
        let toOnes = mapping.relationships.filter { if case .foreignKey = $0.storage { true } else { false } }.map(\.relationship.name)
        return (attributes + toOnes).map(FetchProperty.keyPath)
    }

    /// With an in-memory residual: the rows are read in a context of their own (so the
    /// store's values decide, not this context's unsaved ones), filtered, then windowed.
    private func dictionariesInMemory(_ request: FetchRequest<ManagedObject>, _ rows: FetchQuery) throws -> [FetchedDictionary] {
        let scratch = ManagedObjectContext(store: store)
        var unwindowed = request
        unwindowed.fetchLimit = nil
        unwindowed.fetchOffset = 0
        var window = FetchWindow(offset: request.fetchOffset, limit: request.fetchLimit)
        var seen: Set<FetchedDictionary> = []
        var results: [FetchedDictionary] = []
        let keyPaths = request.propertiesToFetch.map(\.name)
        let layout = FetchedDictionary.Layout(keyPaths)
        try scratch.runFetch(unwindowed, rows) { candidate in
            guard let object = candidate.object else { return true }
            let values = try ManagedObjectContext.values(of: object, keyPaths)
            let row = FetchedDictionary(layout: layout, slots: ContiguousArray(keyPaths.map { values[$0] }))
            if request.returnsDistinctResults, !seen.insert(row).inserted { return true }
            return try window.pass(candidate) { _ in
                results.append(row)
                return true
            }
        }
        return results
    }

    /// An object's values at key paths (attributes, or a to-one destination's ID), nil
    /// values left out.
    static func values(of object: ManagedObject, _ keyPaths: [String]) throws -> [String: FetchedValue] {
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

extension FetchRequest {
    /// Whether the request groups rows or aggregates them.
    var isGrouped: Bool {
        !propertiesToGroupBy.isEmpty || propertiesToFetch.contains { if case .expression = $0 { true } else { false } }
    }
}
