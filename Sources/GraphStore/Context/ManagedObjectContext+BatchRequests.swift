/// Running batch requests (see `BatchRequests.swift`): one transaction each, straight to
/// the store, its persistent history recorded as a save's is.
extension ManagedObjectContext {
    /// Deletes in the store what the request names, with delete rules applied, and returns
    /// what it deleted as the request's ``BatchDeleteRequest/resultType`` asks (Core Data's
    /// `execute(_:)` with an `NSBatchDeleteRequest`).
    ///
    /// ```swift
    /// let result = try context.execute(BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "LogEntry")))
    /// ```
    @discardableResult
    public func execute(_ request: BatchDeleteRequest) throws -> BatchResult {
        let mapping = try store.mapping(for: request.fetchRequest.entityName)
        let family = request.objectIDs != nil || request.fetchRequest.includesSubentities ? store.family(of: mapping) : [mapping]
        let records = recordsBatchHistory
        let selection: PersistentStore.BatchSelection
        if let ids = request.objectIDs {
            let entities = Set(ids.map(\.mapping.name))
            guard entities.count <= 1 else { throw BatchRequestError.mixedEntities(entities.sorted()) }
            selection = .objects(ids)
        } else {
            selection = try batchSelection(request.fetchRequest)
        }
        let outcome = try store.transaction {
            let outcome = try store.batchDelete(selection, family: family, collectsIDs: request.resultType == .objectIDs || records)
            if records {
                try store.recordHistory(
                    outcome.ids.map { .init(changeType: .delete, mapping: $0.mapping, primaryKey: $0.primaryKey ?? 0, changedKeys: []) },
                    author: transactionAuthor, contextName: name)
            }
            return outcome
        }
        return batchResult(outcome, request.resultType, ObjectChanges(deleted: Set(outcome.ids)))
    }

    /// Sets the request's attributes on every object it matches, in the store (Core Data's
    /// `execute(_:)` with an `NSBatchUpdateRequest`). The values are checked against the
    /// attributes' types; nothing else is validated, as in Core Data.
    @discardableResult
    public func execute(_ request: BatchUpdateRequest) throws -> BatchResult {
        let mapping = try store.mapping(for: request.entityName)
        let family = request.includesSubentities ? store.family(of: mapping) : [mapping]
        var values: [(index: Int, value: AttributeValue?)] = []
        for (key, value) in request.propertiesToUpdate.sorted(by: { $0.key < $1.key }) {
            values.append((try storedAttributeIndex(key, of: mapping), try checkedBatchValue(value, key: key, of: mapping)))
        }
        var fetch = FetchRequest(entityName: request.entityName, predicate: request.predicate)
        fetch.includesSubentities = request.includesSubentities
        let selection = try batchSelection(fetch)
        let records = recordsBatchHistory
        let changedKeys = request.propertiesToUpdate.keys.sorted()
        let outcome = try store.transaction {
            let outcome = try store.batchUpdate(selection, family: family, values: values, collectsIDs: request.resultType == .objectIDs || records)
            if records {
                try store.recordHistory(
                    outcome.ids.map { .init(changeType: .update, mapping: $0.mapping, primaryKey: $0.primaryKey ?? 0, changedKeys: changedKeys) },
                    author: transactionAuthor, contextName: name)
            }
            return outcome
        }
        return batchResult(outcome, request.resultType, ObjectChanges(updated: Set(outcome.ids)))
    }

    /// Inserts one object per dictionary of the request, in the store (Core Data's
    /// `execute(_:)` with an `NSBatchInsertRequest`). Values are checked against the
    /// attributes' types; a left-out attribute takes the model's default.
    @discardableResult
    public func execute(_ request: BatchInsertRequest) throws -> BatchResult {
        let mapping = try insertableMapping(request.entityName)
        let defaults = mapping.attributes.map(\.attribute.defaultValue)
        var rows: [[AttributeValue?]] = []
        rows.reserveCapacity(request.objectsToInsert.count)
        for object in request.objectsToInsert {
            var row = defaults
            for (key, value) in object {
                row[try storedAttributeIndex(key, of: mapping)] = try checkedBatchValue(value, key: key, of: mapping)
            }
            rows.append(row)
        }
        let records = recordsBatchHistory
        let ids = try store.transaction {
            let ids = try store.batchInsert(mapping, rows: rows)
            if records {
                try store.recordHistory(
                    ids.map { .init(changeType: .insert, mapping: mapping, primaryKey: $0.primaryKey ?? 0, changedKeys: []) },
                    author: transactionAuthor, contextName: name)
            }
            return ids
        }
        let outcome = PersistentStore.BatchOutcome(count: ids.count, ids: ids)
        return batchResult(outcome, request.resultType, ObjectChanges(inserted: Set(ids)))
    }

    /// Takes in changes made elsewhere (a batch request's result, another process's save)
    /// in each of `contexts`: Core Data's `mergeChanges(fromRemoteContextSave:into:)`.
    ///
    /// ```swift
    /// try ManagedObjectContext.mergeChanges(fromRemoteContextSave: result.changes, into: [viewContext])
    /// ```
    public static func mergeChanges(fromRemoteContextSave changes: ObjectChanges, into contexts: [ManagedObjectContext]) throws {
        for context in contexts { try context.mergeChanges(changes) }
    }

    /// Whether a batch request records persistent history (as a save does).
    private var recordsBatchHistory: Bool { savesHistory && store.keepsHistory }

    /// The rows a fetch request names, as a batch statement selects them: its compiled
    /// conditions when SQL decides the whole predicate and no window applies; otherwise the
    /// IDs the fetch engine finds (a predicate part SQL cannot express is finished in
    /// memory, on rows read for it alone).
    private func batchSelection(_ request: FetchRequest<ManagedObject>) throws -> PersistentStore.BatchSelection {
        var request = try resolvingObjectConstants(request)
        request.sortKeys = []
        request.includesPendingChanges = false
        let query = try fetchQuery(request, readsRows: false)
        if query.residual == nil, request.fetchLimit == nil, request.fetchOffset == 0 { return .query(query) }
        let scratch = ManagedObjectContext(store: store)
        return .objects(try scratch.fetchObjectIDs(request))
    }

    private func storedAttributeIndex(_ key: String, of mapping: EntityMapping) throws -> Int {
        guard let index = mapping.attributeIndex(of: key), mapping.attributes[index].column != nil else {
            throw BatchRequestError.notAnAttribute(entity: mapping.name, key: key)
        }
        return index
    }

    private func checkedBatchValue(_ value: AttributeValue?, key: String, of mapping: EntityMapping) throws -> AttributeValue? {
        guard let value else { return nil }
        let index = try storedAttributeIndex(key, of: mapping)
        let type = mapping.attributeTypes[index]
        guard RowCodec.fits(value, type) else {
            throw StoreError.typeMismatch(entity: mapping.name, key: key, expected: type, found: "\(value)")
        }
        return RowCodec.normalize(value, type)
    }

    private func batchResult(_ outcome: PersistentStore.BatchOutcome, _ type: BatchResultType, _ changes: ObjectChanges) -> BatchResult {
        BatchResult(
            resultType: type, count: outcome.count, objectIDs: type == .objectIDs ? outcome.ids : [],
            changes: type == .objectIDs ? changes : ObjectChanges())
    }
}
