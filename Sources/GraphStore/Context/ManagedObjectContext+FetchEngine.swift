/// The one loop every fetch runs: stored rows from SQL, filtered by the in-memory residual,
/// merged with the unsaved changes, windowed by offset and limit, handed out in order.
extension ManagedObjectContext {
    /// The compiled query a fetch runs: whole rows (objects) or keys only (object IDs,
    /// batches). A predicate with an in-memory part always compiles to rows, since the
    /// values are needed to finish it (see ``PersistentStore/fetchQuery(for:)``).
    func fetchQuery(_ request: FetchRequest<ManagedObject>, readsRows: Bool) throws -> FetchQuery {
        try store.fetchQuery(for: request, selection: readsRows ? .rows : .keys)
    }

    /// Runs a request's compiled query and hands each result to `body` (which returns false
    /// to stop). A `.rows` query makes objects of its rows; a `.keys` query reads keys only.
    func runFetch(_ request: FetchRequest<ManagedObject>, _ query: FetchQuery, _ body: (FetchCandidate) throws -> Bool) throws {
        // Unsaved objects are judged in memory before the rows: the store's interrupt stops
        // their regular expression matches too.
        try store.watchingInterrupts { try runFetchWatched(request, query, body) }
    }

    private func runFetchWatched(_ request: FetchRequest<ManagedObject>, _ query: FetchQuery, _ body: (FetchCandidate) throws -> Bool) throws {
        let pending = try PendingFetchChanges(context: self, request: request, query: query)
        let rows = FetchRowConverter(context: self, query: query, pending: pending, predicate: request.predicate)
        var window = FetchWindow(offset: request.fetchOffset, limit: request.fetchLimit)
        if query.residual == nil, pending.isEmpty {
            // SQL decides everything: it applies the window itself.
            try store.forEachRow(of: query.windowed(limit: request.fetchLimit, offset: request.fetchOffset)) { row in
                guard let candidate = try rows.candidate(row) else { return true }
                return try body(candidate)
            }
            return
        }
        let sqlLimit = query.residual == nil ? request.fetchLimit.map { WindowArithmetic.sum(WindowArithmetic.sum($0, request.fetchOffset), pending.skippable) } : nil
        var merge = PendingMerge(pending: pending.matches, sorts: query.sorts)
        var seenChanged: Set<ObjectID> = []
        var stopped = false
        try store.forEachRow(of: query.windowed(limit: sqlLimit, offset: 0)) { row in
            guard let candidate = try rows.candidate(row) else { return true }
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

/// Turns the rows of one fetch into results: reads the row, makes or reuses its object,
/// leaves out deleted objects, judges changed ones in memory, applies the residual.
///
/// A class, made once per fetch, so that the per-row loop copies nothing (this is the hot
/// loop of every fetch: a million rows pass through here when an app reads a big table).
/// A new object's values are copied from the store's ``RowCursor`` straight into its slots:
/// no intermediate row, no object ID hashed (the identity map is keyed by entity number and
/// key), and the entity's layout and class are looked up once per run of rows.
final class FetchRowConverter {
    private let context: ManagedObjectContext
    /// Whether the query reads whole rows (objects) rather than keys.
    private let readsRows: Bool
    private let sorted: Bool
    private let deleted: Set<ObjectID>
    private let changed: Set<ObjectID>
    private let predicate: ObjectPredicate?
    private let residual: ObjectPredicate?
    private let store: PersistentStore
    /// The context's identity map, held here as a constant so that the per-row lookup and
    /// insert borrow it (reached through the context, each insert retained and released it).
    private let registry: ObjectRegistry
    /// The reading of the fetch's one entity, when it has no sub-entities (most fetches):
    /// a constant, so that a row of it is read without retaining anything of the lookup.
    private let only: EntityReading?
    /// The entity of the last row read (rows of one entity usually come in runs), and every
    /// entity read so far. Read for every row and only ever accessed from `reading(_:_:)`, so
    /// exclusivity is not checked (see `UncheckedStorage.swift`).
    private let last = UncheckedCell<EntityReading?>(nil)
    private let readings = UncheckedCell<[EntityReading]>([])

    /// What reading rows of one concrete entity needs: where its values are, and its class.
    private final class EntityReading {
        let number: Int
        let layout: RowLayout
        let type: ManagedObject.Type

        init(layout: RowLayout, type: ManagedObject.Type) {
            number = layout.mapping.number
            self.layout = layout
            self.type = type
        }
    }

    init(context: ManagedObjectContext, query: FetchQuery, pending: PendingFetchChanges, predicate: ObjectPredicate?) {
        self.context = context
        readsRows = query.selection == .rows
        sorted = !query.sorts.isEmpty
        deleted = pending.deleted
        changed = pending.changed
        self.predicate = predicate
        residual = query.residual
        store = context.store
        registry = context.registered
        if readsRows, query.family.count == 1, let layout = query.reader?.layout(entityNumber: query.family[0].number) {
            only = EntityReading(layout: layout, type: context.objectClass(for: layout.mapping))
        } else {
            only = nil
        }
    }

    /// The result for the cursor's current row, or nil when it does not qualify: its
    /// object is deleted, changed (and merged from memory instead), or fails the residual.
    func candidate(_ row: RowCursor) throws -> FetchCandidate? {
        let number = row.entityNumber
        let key = row.primaryKey
        guard readsRows else { return try keyCandidate(row, number: number, key: key) }
        guard let reading = reading(number, row) else { return nil }
        guard ObjectID.canHold(key) else { throw StoreError.rowKeyOutOfRange(entity: reading.layout.mapping.name, key: key) }
        if !deleted.isEmpty, deleted.contains(ObjectID(mapping: reading.layout.mapping, primaryKey: key)) {
            return nil
        }
        var isNew = false
        let object: ManagedObject
        if let existing = registry.object(number: number, key: key) {
            if !existing.hasData { try fill(existing, key: key, from: row, reading) }
            object = existing
        } else {
            let made = reading.type.init(objectID: ObjectID(mapping: reading.layout.mapping, primaryKey: key), context: context)
            try fill(made, key: key, from: row, reading)
            registry.insert(made, number: number, key: key)
            object = made
            isNew = true
        }
        if !changed.isEmpty, changed.contains(object.objectID) {
            // Sorted fetches merge changed objects by their current values; unsorted ones
            // keep them here if they match now.
            guard !sorted, try predicate?.matches(object) ?? true else { return nil }
            return FetchCandidate(object: object, primaryKey: key, sortValues: [])
        }
        if let residual, try !residual.matches(object) { return nil }
        var candidate = FetchCandidate(object: object, primaryKey: key, sortValues: row.sortValues)
        candidate.isNew = isNew
        return candidate
    }

    /// A result read as a key only (batched fetches, object IDs).
    private func keyCandidate(_ row: RowCursor, number: Int, key: Int64) throws -> FetchCandidate? {
        guard let mapping = store.mapping(number: number) else { return nil }
        guard ObjectID.canHold(key) else { throw StoreError.rowKeyOutOfRange(entity: mapping.name, key: key) }
        let id = ObjectID(mapping: mapping, primaryKey: key)
        if !deleted.isEmpty, deleted.contains(id) { return nil }
        if !changed.isEmpty, changed.contains(id) {
            guard !sorted, let current = context.registered[id], try predicate?.matches(current) ?? true else { return nil }
            return FetchCandidate(id: id, object: current, sortValues: [])
        }
        return FetchCandidate(id: id, object: nil, sortValues: row.sortValues)
    }

    @inline(__always)
    private func reading(_ number: Int, _ row: RowCursor) -> EntityReading? {
        if let only, only.number == number { return only }
        return anyReading(number, row)
    }

    private func anyReading(_ number: Int, _ row: RowCursor) -> EntityReading? {
        if let last = last.value, last.number == number { return last }
        if let known = readings.value.first(where: { $0.number == number }) {
            last.value = known
            return known
        }
        guard let layout = row.layout(entityNumber: number) else { return nil }
        let reading = EntityReading(layout: layout, type: context.objectClass(for: layout.mapping))
        readings.value.append(reading)
        last.value = reading
        return reading
    }

    /// Fills an object's values, to-ones and version from the cursor's current row (the
    /// version a save will check: see ``ManagedObjectContext/versionToCheck(number:key:read:)``).
    /// A value kept in an external file, or one that cannot be read as its type, goes into
    /// its slot deferred: it is read (or reported) when asked for, and the fetch goes on.
    private func fill(_ object: ManagedObject, key: Int64, from row: RowCursor, _ reading: EntityReading) throws {
        let layout = reading.layout
        for attribute in layout.attributes {
            object.values[attribute.index] = row.slot(of: attribute, in: layout)
        }
        for toOne in layout.toOnes {
            guard let destination = try row.destination(of: toOne, in: layout) else { continue }
            object.toOne[toOne.index] = ToOneSlot(object: nil, id: destination.id, order: destination.order)
        }
        object.version = context.versionToCheck(number: reading.number, key: key, read: row.version)
        object.hasData = true
        if context.parent != nil { try context.adoptParentState(object) }
    }
}

/// Offset and limit applied to the merged results.
struct FetchWindow {
    var offset: Int
    /// Where the window ends (offset plus limit, `Int.max` when that does not fit), nil
    /// without a limit.
    private let end: Int?
    private var position = 0

    init(offset: Int, limit: Int?) {
        self.offset = offset
        self.end = limit.map { WindowArithmetic.sum(offset, $0) }
    }

    /// Hands the candidate on if it is inside the window; false when the fetch should stop.
    mutating func pass(_ candidate: FetchCandidate, to body: (FetchCandidate) throws -> Bool) throws -> Bool {
        defer { position += 1 }
        if let end, position >= end { return false }
        if position >= offset, try !body(candidate) { return false }
        if let end, position + 1 >= end { return false }
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
