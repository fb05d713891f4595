/// The optimistic-locking conflicts of one save: found as its attempts write, described from
/// the rows as they are now, and settled in memory by the built-in merge policies, so that
/// the save's next attempt writes what the policy decided.
///
/// Each conflict is described from the row read inside the save's transaction (which holds
/// the write lock, so the row cannot move again before the save ends): both versions, every
/// attribute and to-one whose values differ, and the snapshots a ``MergePolicy`` reads.
/// A built-in policy then takes the stored version as the one the next attempt checks
/// (overwrite, and the merges after combining the object with the stored row), leaves the
/// object out of the save (rollback), or throws (error).
final class ConflictResolution {
    /// Keeps each object's state before a policy changes it, so a failed save puts it back.
    let restorePoint: SaveRestorePoint
    /// Every conflict handed to the policy, once each (a save that succeeds resolved them all).
    private(set) var resolved: [MergeConflict] = []
    private var handed: Set<ObjectIdentifier> = []
    /// Objects whose changes the store's version replaced (rollback): read again once the
    /// save has committed.
    private(set) var rolledBack: [ManagedObject] = []
    /// Objects that took stored to-ones in a merge, with their relationships' other ends
    /// before: those ends are settled once the save has committed.
    private(set) var merged: [(object: ManagedObject, partners: [Int: [ManagedObject]])] = []
    /// Deleted objects whose row someone else deleted already: nothing is left to delete.
    private var alreadyGone: Set<ObjectIdentifier> = []

    init(restorePoint: SaveRestorePoint) {
        self.restorePoint = restorePoint
    }

    /// Whether the row of a deleted object is known to be gone, so its delete is done.
    func isAlreadyGone(_ object: ManagedObject) -> Bool {
        !alreadyGone.isEmpty && alreadyGone.contains(ObjectIdentifier(object))
    }

    /// Notes the conflicts an attempt hands to the policy.
    func handing(_ conflicts: [MergeConflict]) {
        for conflict in conflicts where handed.insert(ObjectIdentifier(conflict.sourceObject)).inserted { resolved.append(conflict) }
    }

    /// What a built-in policy of `type` (not error) does to `conflict`, in memory.
    func settle(_ conflict: MergeConflict, by type: MergePolicyType, in context: ManagedObjectContext) throws {
        let object = conflict.sourceObject
        if type == .rollbackMergePolicyType {
            rolledBack.append(object)
            context.updated.removeValue(forKey: ObjectIdentifier(object))
            context.deleted.removeValue(forKey: ObjectIdentifier(object))
            return
        }
        guard let row = conflict.storedRow else {
            // A row already gone is deleted either way; an update has nothing left to write over.
            if conflict.isDeletion { alreadyGone.insert(ObjectIdentifier(object)) }
            return
        }
        restorePoint.keep(object)
        if !conflict.isDeletion, let rule = Self.mergeRule(type) {
            let partners = context.partners(of: object)
            try context.merge(row, into: object, rule)
            merged.append((object, partners))
        }
        // The next attempt writes over (or deletes) the row at the version it has now.
        object.version = row.version
    }

    private static func mergeRule(_ type: MergePolicyType) -> ManagedObjectContext.PropertyMergeRule? {
        switch type {
        case .mergeByPropertyObjectTrumpMergePolicyType: .localChangesWin
        case .mergeByPropertyStoreTrumpMergePolicyType: .storeChangesWin
        case .errorMergePolicyType, .overwriteMergePolicyType, .rollbackMergePolicyType: nil
        }
    }

    // MARK: - Describing

    /// The conflict of `object`, whose write found its row at another version or gone.
    static func conflict(of object: ManagedObject, isDeletion: Bool, in context: ManagedObjectContext) throws -> MergeConflict {
        let row = try storedRow(of: object, in: context)
        let differences = try row.map { try Self.differences(object, $0, in: context) } ?? []
        return MergeConflict(
            source: object, objectSnapshot: try context.snapshot(of: object, committed: false),
            cachedSnapshot: try context.snapshot(of: object, committed: true),
            persistedSnapshot: try row.map { try context.snapshot(of: $0) }, storedRow: row,
            saveConflict: SaveConflict(
                objectID: object.objectID, expectedVersion: object.version, storedVersion: row?.version, isDeletion: isDeletion,
                differences: differences))
    }

    /// The row of `object` as stored now; nil when it is gone (or holds another entity's object).
    private static func storedRow(of object: ManagedObject, in context: ManagedObjectContext) throws -> StoredRow? {
        guard let row = try context.store.row(of: object.mapping, primaryKey: object.objectID.primaryKey ?? 0), row.entityNumber == object.mapping.number
        else { return nil }
        return row
    }

    /// Each stored attribute, then each to-one, whose value in the context is not the stored one.
    private static func differences(_ object: ManagedObject, _ row: StoredRow, in context: ManagedObjectContext) throws -> [SaveConflict.Difference] {
        let mapping = object.mapping
        var found: [SaveConflict.Difference] = []
        for i in mapping.storedAttributeIndices where object.values[i] != row.slot(at: i) {
            // A value that cannot be read (a missing file) is shown as none.
            let yours = (try? object.attributeValue(at: i)) ?? nil
            let stored = (try? row.attributeValue(at: i)) ?? nil
            found.append(.init(key: mapping.attributeNames[i], yours: yours.map(FetchedValue.attribute), stored: stored.map(FetchedValue.attribute)))
        }
        for toOne in mapping.toOneColumns {
            let yours = object.toOne[toOne.index].destinationID
            let stored = try row.toOne[toOne.index].map { try context.destinationID(of: mapping, relationship: toOne.index, key: $0) }
            guard yours != stored else { continue }
            found.append(.init(key: mapping.relationships[toOne.index].relationship.name, yours: yours.map(FetchedValue.objectID), stored: stored.map(FetchedValue.objectID)))
        }
        return found
    }
}

extension MergeConflict {
    /// What a built-in policy of `type` does to this conflict: through the save under way in
    /// the object's context, the only place the conflict can be settled.
    func resolve(by type: MergePolicyType) throws {
        guard foundBySave, let context = sourceObject.managedObjectContext, let resolution = context.conflictResolution else {
            throw StoreError.unresolvableConflict("the conflict of \(objectID) was not handed over by a save under way (a built-in policy settles only those)")
        }
        try resolution.settle(self, by: type, in: context)
    }
}
