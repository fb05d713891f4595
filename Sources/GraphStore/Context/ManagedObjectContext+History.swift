/// A save's persistent history: what the save changed, handed to the store inside the
/// save's transaction (see `Store/PersistentStore+History.swift`).
extension ManagedObjectContext {
    /// Records the inserts, updates and deletes being written, unless ``savesHistory`` is off.
    func recordHistory() throws {
        guard savesHistory, store.keepsHistory else { return }
        var entries: [PersistentStore.HistoryEntry] = []
        entries.reserveCapacity(inserted.count + updated.count + deleted.count)
        for object in inserted.values {
            entries.append(.init(changeType: .insert, mapping: object.mapping, primaryKey: object.pendingKey ?? 0, changedKeys: []))
        }
        for object in updated.values {
            entries.append(.init(changeType: .update, mapping: object.mapping, primaryKey: object.objectID.primaryKey ?? 0, changedKeys: object.changedKeys()))
        }
        for object in deleted.values {
            entries.append(.init(changeType: .delete, mapping: object.mapping, primaryKey: object.objectID.primaryKey ?? 0, changedKeys: []))
        }
        try store.recordHistory(entries, author: transactionAuthor, contextName: name)
    }
}
