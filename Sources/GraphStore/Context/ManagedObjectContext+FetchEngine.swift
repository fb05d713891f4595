/// The one loop every fetch runs: stored rows from SQL, filtered by the in-memory residual,
/// merged with the unsaved changes, windowed by offset and limit, handed out in order.
extension ManagedObjectContext {
    /// Runs a request and hands each result to `body` (which returns false to stop).
    ///
    /// - Parameter readsRows: read whole rows and make objects of them; otherwise only
    ///   keys are read (unless the predicate has an in-memory part, which needs the values).
    func runFetch(_ request: FetchRequest, readsRows: Bool, _ body: (FetchCandidate) throws -> Bool) throws {
        var compiled = try store.fetchQuery(for: request, selection: readsRows ? .rows : .keys)
        if compiled.residual != nil, !readsRows { compiled = try store.fetchQuery(for: request, selection: .rows) }
        let query = compiled
        let pending = try PendingFetchChanges(context: self, request: request, query: query)
        let rows = FetchRowConverter(context: self, query: query, pending: pending, predicate: request.predicate)
        var window = FetchWindow(offset: request.fetchOffset, limit: request.fetchLimit)
        if query.residual == nil, pending.isEmpty {
            // SQL decides everything: it applies the window itself.
            try store.forEachRow(of: query.windowed(limit: request.fetchLimit, offset: request.fetchOffset)) { statement in
                guard let candidate = try rows.candidate(statement) else { return true }
                return try body(candidate)
            }
            return
        }
        let sqlLimit = query.residual == nil ? request.fetchLimit.map { $0 + request.fetchOffset + pending.skippable } : nil
        var merge = PendingMerge(pending: pending.matches, sorts: query.sorts)
        var seenChanged: Set<ObjectID> = []
        var stopped = false
        try store.forEachRow(of: query.windowed(limit: sqlLimit, offset: 0)) { statement in
            guard let candidate = try rows.candidate(statement) else { return true }
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
}

/// Turns the rows of one fetch statement into results: reads the row, makes or reuses its
/// object, leaves out deleted objects, judges changed ones in memory, applies the residual.
///
/// A class, made once per fetch, so that the per-row loop copies nothing (this is the hot
/// loop of every fetch: a million rows pass through here when an app reads a big table).
final class FetchRowConverter {
    private let context: ManagedObjectContext
    private let reader: RowReader?
    private let sortStart: Int
    private let sortCount: Int
    private let sorted: Bool
    private let deleted: Set<ObjectID>
    private let changed: Set<ObjectID>
    private let predicate: ObjectPredicate?
    private let residual: ObjectPredicate?
    private let storeUUID: String
    /// The last entity's number and class (rows of one entity usually come in runs).
    private var lastClass: (number: Int, type: ManagedObject.Type)?

    init(context: ManagedObjectContext, query: FetchQuery, pending: PendingFetchChanges, predicate: ObjectPredicate?) {
        self.context = context
        reader = query.reader
        sortStart = query.sortStart
        sortCount = query.sorts.count
        sorted = !query.sorts.isEmpty
        deleted = pending.deleted
        changed = pending.changed
        self.predicate = predicate
        residual = query.residual
        storeUUID = context.store.uuid
    }

    /// The result for the statement's current row, or nil when it does not qualify: its
    /// object is deleted, changed (and merged from memory instead), or fails the residual.
    func candidate(_ statement: Statement) throws -> FetchCandidate? {
        var object: ManagedObject?
        var isNew = false
        let id: ObjectID
        if let reader {
            guard let row = reader.read(statement) else { return nil }
            id = ObjectID(mapping: row.mapping, storeUUID: storeUUID, primaryKey: row.primaryKey)
            if !deleted.isEmpty, deleted.contains(id) { return nil }
            (object, isNew) = try materialize(row, id: id)
        } else {
            guard let mapping = context.store.mapping(number: Int(statement.int64(1))) else { return nil }
            id = ObjectID(mapping: mapping, storeUUID: storeUUID, primaryKey: statement.int64(0))
            if !deleted.isEmpty, deleted.contains(id) { return nil }
        }
        if !changed.isEmpty, changed.contains(id) {
            // Sorted fetches merge changed objects by their current values; unsorted ones
            // keep them here if they match now.
            guard !sorted, let current = context.registered[id], try predicate?.evaluate(with: current) ?? true else { return nil }
            return FetchCandidate(id: id, object: current, sortValues: [])
        }
        if let residual, let object, try !residual.evaluate(with: object) { return nil }
        var candidate = FetchCandidate(id: id, object: object, sortValues: sortValues(statement))
        candidate.isNew = isNew
        return candidate
    }

    private func sortValues(_ statement: Statement) -> [SQLiteValue] {
        guard sortCount > 0 else { return [] }
        return (sortStart..<sortStart + sortCount).map { statement.value($0) }
    }

    /// The registered object for a row (filled from the row if it has no data yet), and
    /// whether it was registered just now: one dictionary lookup and one insert per new row.
    private func materialize(_ row: StoredRow, id: ObjectID) throws -> (ManagedObject, Bool) {
        if let existing = context.registered[id] {
            if !existing.hasData {
                if let problem = row.problems.first { throw problem }
                try context.apply(row, to: existing)
            }
            return (existing, false)
        }
        if let problem = row.problems.first { throw problem }
        let object = objectClass(row.mapping).init(objectID: id, context: context)
        try context.apply(row, to: object)
        context.registered[id] = object
        return (object, true)
    }

    private func objectClass(_ mapping: EntityMapping) -> ManagedObject.Type {
        if let lastClass, lastClass.number == mapping.number { return lastClass.type }
        let type = context.objectClass(for: mapping)
        lastClass = (mapping.number, type)
        return type
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
