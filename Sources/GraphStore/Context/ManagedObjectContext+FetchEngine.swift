/// The one loop every fetch runs: stored rows from SQL, filtered by the in-memory residual,
/// merged with the unsaved changes, windowed by offset and limit, handed out in order.
extension ManagedObjectContext {
    /// Runs a request and hands each result to `body` (which returns false to stop).
    ///
    /// - Parameter readsRows: read whole rows and make objects of them; otherwise only
    ///   keys are read (unless the predicate has an in-memory part, which needs the values).
    func runFetch(_ request: FetchRequest, readsRows: Bool, _ body: (FetchCandidate) throws -> Bool) throws {
        var query = try store.fetchQuery(for: request, selection: readsRows ? .rows : .keys)
        if query.residual != nil, !readsRows { query = try store.fetchQuery(for: request, selection: .rows) }
        let pending = try PendingFetchChanges(context: self, request: request, query: query)
        var window = FetchWindow(offset: request.fetchOffset, limit: request.fetchLimit)
        if query.residual == nil, pending.isEmpty {
            // SQL decides everything: it applies the window itself.
            try store.forEachRow(of: query.windowed(limit: request.fetchLimit, offset: request.fetchOffset)) { statement in
                guard let candidate = try storedCandidate(statement, query, pending, request) else { return true }
                return try body(candidate)
            }
            return
        }
        let sqlLimit = query.residual == nil ? request.fetchLimit.map { $0 + request.fetchOffset + pending.skippable } : nil
        var merge = PendingMerge(pending: pending.matches, sorts: query.sorts)
        var seenChanged: Set<ObjectID> = []
        var stopped = false
        try store.forEachRow(of: query.windowed(limit: sqlLimit, offset: 0)) { statement in
            guard let candidate = try storedCandidate(statement, query, pending, request) else { return true }
            if pending.changed.contains(candidate.id) { seenChanged.insert(candidate.id) }
            for earlier in merge.take(before: candidate) where try !window.pass(earlier, to: body) {
                stopped = true
                return false
            }
            stopped = try !window.pass(candidate, to: body)
            return !stopped
        }
        guard !stopped else { return }
        let rest = merge.remaining() + pending.changedMatches.filter { !seenChanged.contains($0.id) }
        for candidate in rest where try !window.pass(candidate, to: body) { return }
    }

    /// The result for the statement's current row, or nil when it does not qualify: its
    /// object is deleted, changed (and merged from memory instead), or fails the residual.
    private func storedCandidate(_ statement: Statement, _ query: FetchQuery, _ pending: PendingFetchChanges, _ request: FetchRequest) throws
        -> FetchCandidate?
    {
        var object: ManagedObject?
        var isNew = false
        let id: ObjectID
        if let reader = query.reader {
            guard let row = reader.read(statement) else { return nil }
            id = ObjectID(mapping: row.mapping, storeUUID: store.uuid, primaryKey: row.primaryKey)
            if pending.deleted.contains(id) { return nil }
            (object, isNew) = try materialize(row, id: id)
        } else {
            guard let mapping = store.mapping(number: Int(statement.int64(1))) else { return nil }
            id = ObjectID(mapping: mapping, storeUUID: store.uuid, primaryKey: statement.int64(0))
            if pending.deleted.contains(id) { return nil }
        }
        if pending.changed.contains(id) {
            // Sorted fetches merge changed objects by their current values; unsorted ones
            // keep them here if they match now.
            guard query.sorts.isEmpty, let current = registered[id], try request.predicate?.evaluate(with: current) ?? true else { return nil }
            return FetchCandidate(id: id, object: current, sortValues: [])
        }
        if let residual = query.residual, let object, try !residual.evaluate(with: object) { return nil }
        let sortValues = (0..<query.sorts.count).map { statement.value(query.sortStart + $0) }
        var candidate = FetchCandidate(id: id, object: object, sortValues: sortValues)
        candidate.isNew = isNew
        return candidate
    }

    /// The registered object for a row (filled from the row if it has no data yet), and
    /// whether it was registered just now. One dictionary lookup per row: this is the hot
    /// loop of every fetch.
    private func materialize(_ row: StoredRow, id: ObjectID) throws -> (ManagedObject, Bool) {
        if let existing = registered[id] {
            if !existing.hasData {
                if let problem = row.problems.first { throw problem }
                try apply(row, to: existing)
            }
            return (existing, false)
        }
        if let problem = row.problems.first { throw problem }
        let object = objectClass(for: row.mapping).init(objectID: id, context: self)
        try apply(row, to: object)
        registered[id] = object
        return (object, true)
    }
}

/// Offset and limit applied to the merged results.
struct FetchWindow {
    var offset: Int
    var limit: Int?
    private var position = 0

    init(offset: Int, limit: Int?) {
        self.offset = offset
        self.limit = limit
    }

    /// Hands the candidate on if it is inside the window; false when the fetch should stop.
    mutating func pass(_ candidate: FetchCandidate, to body: (FetchCandidate) throws -> Bool) throws -> Bool {
        defer { position += 1 }
        if let limit, position >= offset + limit { return false }
        if position >= offset, try !body(candidate) { return false }
        if let limit, position + 1 >= offset + limit { return false }
        return true
    }
}

/// The unsaved matches, handed out as the stored stream reaches their place in the order.
struct PendingMerge {
    private var pending: [FetchCandidate]
    private var next = 0
    private let sorts: [FetchQuery.SortColumn]

    init(pending: [FetchCandidate], sorts: [FetchQuery.SortColumn]) {
        self.pending = pending
        self.sorts = sorts
    }

    /// The unsaved matches that sort before `candidate` (none when unsorted: they go last).
    mutating func take(before candidate: FetchCandidate) -> ArraySlice<FetchCandidate> {
        guard !sorts.isEmpty else { return [] }
        let start = next
        while next < pending.count, pending[next].precedes(candidate, in: sorts) { next += 1 }
        return pending[start..<next]
    }

    /// The unsaved matches not handed out yet.
    mutating func remaining() -> [FetchCandidate] {
        defer { next = pending.count }
        return Array(pending[next...])
    }
}
