/// The conflicts one save meets, settled by its ``MergePolicy``: a changed or deleted object
/// whose row no longer has the version the context read.
///
/// Each conflict is described from the row as it is now, read inside the save's transaction
/// (which holds the write lock, so the row cannot move again before the save ends): both
/// versions and every attribute and to-one whose values differ. Under
/// ``MergePolicy/overwrite`` the write is made again over the stored version.
struct ConflictResolution {
    let policy: MergePolicy
    /// Conflicts the save cannot resolve: it fails with them.
    private(set) var unresolved: [MergeConflict] = []
    /// Conflicts resolved by writing this context's version over the stored one.
    private(set) var overwritten: [MergeConflict] = []
    /// The stored version each overwritten update was written over (its new version is one more).
    private(set) var rebased: [ObjectIdentifier: Int64] = [:]

    init(policy: MergePolicy) {
        self.policy = policy
    }

    /// Settles a write of `object` that found its row at another version, or gone.
    mutating func settle(_ object: ManagedObject, isDeletion: Bool, in context: ManagedObjectContext) throws {
        let conflict = try Self.describe(object, isDeletion: isDeletion, in: context)
        guard policy == .overwrite else {
            unresolved.append(conflict)
            return
        }
        guard let stored = conflict.storedVersion else {
            // A row already gone is deleted either way; an update has nothing left to overwrite.
            if isDeletion { overwritten.append(conflict) } else { unresolved.append(conflict) }
            return
        }
        let key = object.objectID.primaryKey ?? 0
        let written =
            isDeletion
            ? try context.store.deleteRow(object.mapping, primaryKey: key, checking: stored)
            : try context.writeRow(of: object, version: stored)
        guard written else {
            unresolved.append(conflict)
            return
        }
        overwritten.append(conflict)
        if !isDeletion { rebased[ObjectIdentifier(object)] = stored }
    }

    /// The conflict of `object` with its row as stored now.
    static func describe(_ object: ManagedObject, isDeletion: Bool, in context: ManagedObjectContext) throws -> MergeConflict {
        let mapping = object.mapping
        guard let row = try context.store.row(of: mapping, primaryKey: object.objectID.primaryKey ?? 0), row.entityNumber == mapping.number else {
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
