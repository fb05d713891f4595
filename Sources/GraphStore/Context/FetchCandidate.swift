/// One result on its way out of a fetch: a stored row's object (or only its ID, for
/// batched results), or an unsaved object, with the values it sorts by.
struct FetchCandidate {
    /// A result is an object, or only an ID (batched results): an object's ID is its own,
    /// so it is not kept twice (copying an ID retains its parts, once per row).
    private enum Source {
        case object(ManagedObject)
        case stored(ObjectID)
    }

    private var source: Source
    /// The values of the request's sort keys, as SQL orders them.
    var sortValues: [SortValue]
    /// The last sort key: stored objects by `Z_PK` (as the SQL's `ORDER BY …, t0.Z_PK`),
    /// then unsaved ones in insertion order.
    var rank: (temporary: Int, key: Int64)
    /// Whether reading this row registered the object (it was not in the context before).
    var isNew = false

    /// The object's ID.
    var id: ObjectID {
        switch source {
        case .object(let object): object.objectID
        case .stored(let id): id
        }
    }

    /// The object, when the row was read in full (or the object is unsaved).
    var object: ManagedObject? {
        if case .object(let object) = source { return object }
        return nil
    }

    /// A result; `object`, when given, must be the object with ID `id`.
    init(id: ObjectID, object: ManagedObject?, sortValues: [SortValue], insertionIndex: Int = 0) {
        self.source = object.map(Source.object) ?? .stored(id)
        self.sortValues = sortValues
        rank = id.primaryKey.map { (0, $0) } ?? (1, Int64(insertionIndex))
    }

    /// A stored object's result (the fetch loop: no ID is copied).
    init(object: ManagedObject, primaryKey: Int64, sortValues: [SortValue]) {
        self.source = .object(object)
        self.sortValues = sortValues
        rank = (0, primaryKey)
    }

    /// Whether this result comes before `other` in the order of `sorts`.
    func precedes(_ other: FetchCandidate, in sorts: [FetchQuery.SortColumn]) -> Bool {
        for (i, sort) in sorts.enumerated() {
            let order = SortValue.compare(sortValues[i], other.sortValues[i])
            if order != 0 { return sort.ascending ? order < 0 : order > 0 }
        }
        return rank < other.rank
    }
}

extension ManagedObject {
    /// The object's sort values as SQL would compute them from its row: the value at each
    /// key path, stored the way the store stores it (and folded when case-insensitive).
    func sortValues(for sorts: [FetchQuery.SortColumn]) throws -> [SortValue] {
        try sorts.map { $0.sortValue(of: try predicateValue(forKeyPath: $0.keyPath)) }
    }
}
