/// One object a save found changed or deleted in the store since its context read it, as a
/// ``MergePolicy`` is handed it: Core Data's `NSMergeConflict`, with the object itself, its
/// snapshots, both versions and the values that differ.
///
/// ```swift
/// final class LoggingPolicy: MergePolicy {
///     override func resolve(optimisticLockingConflicts list: [MergeConflict]) throws {
///         for conflict in list {
///             print(conflict.sourceObject.objectID, conflict.persistedSnapshot?["title"] ?? "deleted")
///         }
///         try super.resolve(optimisticLockingConflicts: list)   // then merge as usual
///     }
/// }
/// ```
///
/// It holds the object, so it stays in the object's context: it is not `Sendable`. A save
/// that fails with it throws its ``saveConflict`` (the part that names the object by its
/// ``ObjectID``) in ``StoreError/optimisticLockingFailure(_:)``.
public struct MergeConflict: CustomStringConvertible {
    /// The object in conflict, in the context being saved (Core Data's `sourceObject`).
    public let sourceObject: ManagedObject
    /// The object's values as the save would write them (Core Data's `objectSnapshot`).
    public let objectSnapshot: ObjectSnapshot?
    /// The object's values as this context last read or saved them (Core Data's
    /// `cachedSnapshot`, the row the coordinator had cached: GraphStore has no cache
    /// between a context and its store, so it is the context's own committed state).
    public let cachedSnapshot: ObjectSnapshot?
    /// The row as stored now, read inside the save's transaction; nil when someone else
    /// deleted it (Core Data's `persistedSnapshot`).
    public let persistedSnapshot: ObjectSnapshot?
    /// The object's ID, both versions and the values that differ: what an error reports.
    public let saveConflict: SaveConflict
    /// The row as read when the save found the conflict (what the built-in policies merge).
    let storedRow: StoredRow?
    /// Whether a save found the conflict (rather than an app making it by hand).
    let foundBySave: Bool

    /// A conflict made by hand (Core Data's `init(source:newVersion:oldVersion:cachedSnapshot:persistedSnapshot:)`):
    /// `newVersion` 0 says the row was deleted. The object's own snapshot is taken now, and
    /// the differences are the properties whose values in `persistedSnapshot` and in the
    /// object differ. The built-in policies resolve only the conflicts a save hands them.
    public init(source: ManagedObject, newVersion: Int64, oldVersion: Int64, cachedSnapshot: ObjectSnapshot?, persistedSnapshot: ObjectSnapshot?) {
        // An object whose values cannot be read (its row gone) has no snapshot of its own.
        let objectSnapshot = (try? source.managedObjectContext?.snapshot(of: source, committed: false)) ?? nil
        var differences: [SaveConflict.Difference] = []
        if let persistedSnapshot, let objectSnapshot {
            for key in Set(persistedSnapshot.keys).union(objectSnapshot.keys).sorted() where persistedSnapshot[key] != objectSnapshot[key] {
                differences.append(.init(key: key, yours: objectSnapshot[key], stored: persistedSnapshot[key]))
            }
        }
        self.init(
            source: source, objectSnapshot: objectSnapshot, cachedSnapshot: cachedSnapshot, persistedSnapshot: persistedSnapshot, storedRow: nil,
            foundBySave: false,
            saveConflict: SaveConflict(
                objectID: source.objectID, expectedVersion: oldVersion, storedVersion: newVersion == 0 ? nil : newVersion,
                isDeletion: source.isDeleted, differences: differences))
    }

    init(
        source: ManagedObject, objectSnapshot: ObjectSnapshot?, cachedSnapshot: ObjectSnapshot?, persistedSnapshot: ObjectSnapshot?,
        storedRow: StoredRow?, foundBySave: Bool = true, saveConflict: SaveConflict
    ) {
        self.sourceObject = source
        self.objectSnapshot = objectSnapshot
        self.cachedSnapshot = cachedSnapshot
        self.persistedSnapshot = persistedSnapshot
        self.storedRow = storedRow
        self.foundBySave = foundBySave
        self.saveConflict = saveConflict
    }

    /// The object in conflict.
    public var objectID: ObjectID { saveConflict.objectID }
    /// The version (`Z_OPT`) the context read, which the save expected to find.
    public var expectedVersion: Int64 { saveConflict.expectedVersion }
    /// The version in the store now; nil when the row was deleted.
    public var storedVersion: Int64? { saveConflict.storedVersion }
    /// Whether the context was deleting the object (rather than saving changes to it).
    public var isDeletion: Bool { saveConflict.isDeletion }
    /// The attributes and to-ones whose values differ, in model order.
    public var differences: [SaveConflict.Difference] { saveConflict.differences }
    /// Whether someone else deleted the object's row.
    public var rowIsGone: Bool { saveConflict.rowIsGone }
    /// The version this context read (Core Data's `oldVersionNumber`).
    public var oldVersionNumber: Int64 { expectedVersion }
    /// The version stored now, 0 when the row was deleted (Core Data's `newVersionNumber`).
    public var newVersionNumber: Int64 { storedVersion ?? 0 }
    /// The sentence: who did what since the object was read, and both versions.
    public var summary: String { saveConflict.summary }
    /// The summary, then one indented line per difference.
    public var description: String { saveConflict.description }
}
