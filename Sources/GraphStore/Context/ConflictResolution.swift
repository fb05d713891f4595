/// The conflicts one save meets, settled by its ``MergePolicy``: a changed or deleted object
/// whose row no longer has the version the context read.
///
/// Each conflict is described from the row as it is now, read inside the save's transaction
/// (which holds the write lock, so the row cannot move again before the save ends): both
/// versions and every attribute and to-one whose values differ. Then, by policy: written
/// again over the stored version (overwrite, and the merges after combining the object with
/// the stored row), left out of the save (rollback), or kept as a failure (error).
struct ConflictResolution {
    let policy: MergePolicy
    /// Keeps each object's state before a merge changes it, so a failed save puts it back.
    let restorePoint: SaveRestorePoint
    /// Conflicts the save cannot resolve: it fails with them.
    private(set) var unresolved: [MergeConflict] = []
    /// Conflicts resolved by the policy.
    private(set) var resolved: [MergeConflict] = []
    /// The stored version each rewritten update was written over (its new version is one more).
    private(set) var rebased: [ObjectIdentifier: Int64] = [:]
    /// Objects whose changes the store's version replaced (rollback): read again once the
    /// save has committed.
    private(set) var rolledBack: [ManagedObject] = []
    /// Objects that took stored to-ones in a merge, with their relationships' other ends
    /// before: those ends are settled once the save has committed.
    private(set) var merged: [(object: ManagedObject, partners: [Int: [ManagedObject]])] = []

    init(policy: MergePolicy, restorePoint: SaveRestorePoint) {
        self.policy = policy
        self.restorePoint = restorePoint
    }

    /// Settles a write of `object` that found its row at another version, or gone; returns
    /// whether the row was written (or, for a deletion, deleted) after all.
    mutating func settle(_ object: ManagedObject, isDeletion: Bool, in context: ManagedObjectContext) throws -> Bool {
        let row = try Self.storedRow(of: object, in: context)
        let conflict = try Self.describe(object, row: row, isDeletion: isDeletion, in: context)
        switch policy {
        case .error:
            unresolved.append(conflict)
            return false
        case .rollback:
            resolved.append(conflict)
            rolledBack.append(object)
            return false
        case .overwrite, .mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump:
            break
        }
        guard let row else {
            // A row already gone is deleted either way; an update has nothing left to write over.
            if isDeletion { resolved.append(conflict) } else { unresolved.append(conflict) }
            return isDeletion
        }
        let key = object.objectID.primaryKey ?? 0
        let stored = row.version
        if !isDeletion, let rule = mergeRule {
            restorePoint.keep(object)
            let partners = context.partners(of: object)
            try context.merge(row, into: object, rule)
            merged.append((object, partners))
        }
        let written =
            isDeletion
            ? try context.store.deleteRow(object.mapping, primaryKey: key, checking: stored)
            : try context.writeRow(of: object, version: stored)
        guard written else {
            unresolved.append(conflict)
            return false
        }
        resolved.append(conflict)
        if !isDeletion { rebased[ObjectIdentifier(object)] = stored }
        return true
    }

    private var mergeRule: ManagedObjectContext.PropertyMergeRule? {
        switch policy {
        case .mergeByPropertyObjectTrump: .localChangesWin
        case .mergeByPropertyStoreTrump: .storeChangesWin
        case .error, .overwrite, .rollback: nil
        }
    }

    /// The row of `object` as stored now; nil when it is gone (or holds another entity's object).
    private static func storedRow(of object: ManagedObject, in context: ManagedObjectContext) throws -> StoredRow? {
        guard let row = try context.store.row(of: object.mapping, primaryKey: object.objectID.primaryKey ?? 0), row.entityNumber == object.mapping.number
        else { return nil }
        return row
    }

    /// The conflict of `object` with its row as stored now (`row`, nil when gone).
    private static func describe(_ object: ManagedObject, row: StoredRow?, isDeletion: Bool, in context: ManagedObjectContext) throws -> MergeConflict {
        guard let row else {
            return MergeConflict(objectID: object.objectID, expectedVersion: object.version, storedVersion: nil, isDeletion: isDeletion, differences: [])
        }
        return MergeConflict(
            objectID: object.objectID, expectedVersion: object.version, storedVersion: row.version, isDeletion: isDeletion,
            differences: try differences(object, row, in: context))
    }

    /// Each stored attribute, then each to-one, whose value in the context is not the stored one.
    private static func differences(_ object: ManagedObject, _ row: StoredRow, in context: ManagedObjectContext) throws -> [MergeConflict.Difference] {
        let mapping = object.mapping
        var found: [MergeConflict.Difference] = []
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
