import OrderedCollections

/// What a save may change before its transaction commits, kept so that a failed save puts
/// it back: afterwards the context shows the store plus the user's pending changes, exactly
/// as before the save (temporary IDs, versions, the pending lists, `Z_MAX`, the undo stacks).
///
/// Before writing, a save runs app code: `willSave` hooks, validation overrides and the
/// `awakeFromFetch` of objects it reads may set values (primitive ones too), insert or delete
/// objects and register undo actions; the save itself marks the members of reordered
/// relationships as updated. Inside the transaction it hands out keys from `Z_MAX`, and its
/// merge policy changes objects: it merges stored rows into them and takes the stored
/// versions, deletes duplicates, moves relationships, reads objects again (a reload can let
/// go of an object whose row is gone). Failing
/// after any of that (validation, a conflict, a trigger, a UNIQUE index, a full disk) used to
/// leave the hooks' changes in the context, for `show` to print as if they were the user's.
///
/// Kept cheaply: the pending lists and undo stacks as copies that share their storage until
/// something changes (a save whose hooks change nothing copies nothing), and an object's state
/// only the first time something changes it during the save.
final class SaveRestorePoint {
    private let inserted: InsertionList
    private let updated: OrderedDictionary<ObjectIdentifier, ManagedObject>
    private let deleted: OrderedDictionary<ObjectIdentifier, ManagedObject>
    private let nextTemporaryID: Int64
    private let records: [Int: PrimaryKeyEntry]
    private let undo: ContextUndoManager.SavedState?
    /// Versions recorded for objects the context let go of, as they were before the save
    /// read their rows again (see ``SeenVersions``).
    private var seenVersions: [(version: Int64, number: Int, key: Int64)] = []
    /// The state of each object before its first change during the save.
    private var kept: [ObjectState] = []
    /// Objects inserted during the save: they leave the context again.
    private var made: [ManagedObject] = []
    /// Stored objects the context let go of during the save: they are registered again.
    private var letGo: [ManagedObject] = []
    private var seen: Set<ObjectIdentifier> = []

    init(_ context: ManagedObjectContext) {
        inserted = context.inserted
        updated = context.updated
        deleted = context.deleted
        nextTemporaryID = context.nextTemporaryID
        records = context.store.primaryKeyEntries
        undo = context.undoManager?.savedState()
    }

    /// Called before an object changes during the save (`kind` is nil for a primitive value).
    func keep(_ object: ManagedObject, _ kind: ManagedObjectContext.ChangeKind? = nil) {
        guard seen.insert(ObjectIdentifier(object)).inserted else { return }
        if case .insert? = kind {
            made.append(object)
        } else {
            kept.append(ObjectState(object))
        }
    }

    /// Called before the context lets go of a stored object (kept first) during the save.
    func keepRegistration(_ object: ManagedObject) {
        keep(object)
        letGo.append(object)
    }

    /// Called before the context records a newer version of an object it let go of.
    func keepSeenVersion(_ version: Int64, number: Int, key: Int64) {
        seenVersions.append((version, number, key))
    }

    /// Puts the context back as it was when the point was made.
    func restore(_ context: ManagedObjectContext) {
        for state in kept { state.restore() }
        for object in letGo where object.managedObjectContext === context { context.registered.insert(object, for: object.objectID) }
        for object in made {
            object.managedObjectContext = nil
            object.releaseRelationships()
        }
        context.inserted = inserted
        context.updated = updated
        context.deleted = deleted
        context.nextTemporaryID = nextTemporaryID
        context.store.primaryKeyEntries = records
        for object in inserted.values { object.pendingKey = nil }
        if let undo { context.undoManager?.restore(undo) }
        for entry in seenVersions.reversed() { context.seenVersions.record(entry.version, number: entry.number, key: entry.key) }
    }

    /// Everything of one object a change can touch.
    private struct ObjectState {
        let object: ManagedObject
        let context: ManagedObjectContext?
        let values: ValueSlots
        let toOne: ToOneSlots
        let toMany: ToManySlots
        let snapshot: ManagedObject.Snapshot?
        let dirtyRelationships: IndexMask
        let version: Int64
        let lifecycle: ManagedObject.Lifecycle
        let isFault: Bool
        let hasData: Bool

        init(_ object: ManagedObject) {
            self.object = object
            context = object.managedObjectContext
            values = object.values
            toOne = object.toOne
            toMany = object.toMany
            // The snapshot is changed in place (a to-many's committed members are added to
            // it on first change), so it is copied.
            snapshot = object.snapshot.map { ManagedObject.Snapshot(values: $0.values, toOne: $0.toOne, toMany: $0.toMany) }
            dirtyRelationships = object.dirtyRelationships
            version = object.version
            lifecycle = object.lifecycle
            isFault = object.isFault
            hasData = object.hasData
        }

        func restore() {
            object.managedObjectContext = context
            object.values = values
            object.toOne = toOne
            object.toMany = toMany
            object.snapshot = snapshot
            object.dirtyRelationships = dirtyRelationships
            object.version = version
            object.lifecycle = lifecycle
            object.isFault = isFault
            object.hasData = hasData
        }
    }
}
