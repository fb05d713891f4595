import OrderedCollections

/// A scratch pad of objects: fetch them, change them, insert and delete them, then save
/// all the changes to the store in one transaction, or roll them back.
///
/// A context is used from one task at a time, as Core Data's confinement rules require.
///
/// ```swift
/// let context = ManagedObjectContext(store: store)
/// let book = try context.insert("Book")
/// try book.set("title", "Dune")
/// try context.save()
/// book.objectID.uriRepresentation    // "x-coredata://…/Book/p1"
/// ```
///
/// ## Versions and conflicts
///
/// Every path that reads an object's row into the context (a fetch, ``enumerate(_:_:)``, a
/// fault, ``existingObject(entity:primaryKey:)``, a relationship, a batch of
/// ``FetchedObjects``) records the row's version (`Z_OPT`), and a save of a changed or deleted
/// object checks that the row still has it. When someone else saved the row meanwhile, the
/// save throws ``StoreError/optimisticLockingFailure(_:)`` (Core Data's 133020) naming every
/// conflicting object with the values on both sides; nothing is written and the changes stay
/// pending. Then ``reload(_:)`` takes the stored values, or a save with
/// ``MergePolicy/overwrite`` (see ``mergePolicy``) keeps this context's.
///
/// The version checked is the one this context *first* read of the object: when it let go
/// of the object (``enumerate(_:_:)`` does, one row after another) and reads it again, the
/// object shows the newer values, but a save still expects the version first read, since that
/// is what the user saw. Only ``reload(_:)`` (or ``reset()``) accepts the newer version.
/// A context on a read-only store never saves, so it keeps no record of objects it let go of.
public final class ManagedObjectContext {
    /// The store the context reads from and saves to.
    public let store: PersistentStore
    /// The stored objects the context knows of, by entity number and key: read and written
    /// for every row a fetch reads. A constant, so that reaching it costs no retain.
    let registered = ObjectRegistry()
    // The insert path touches these once per object; no access to them ever overlaps
    // another (walks go over copies), so exclusivity is not checked at run time: each lives
    // in an UncheckedCell (see `UncheckedStorage.swift`), whose debug builds check it.
    private let insertedCell = UncheckedCell(InsertionList())
    var inserted: InsertionList {
        get { insertedCell.value }
        _modify { yield &insertedCell.value }
    }
    var updated: OrderedDictionary<ObjectIdentifier, ManagedObject> = [:]
    var deleted: OrderedDictionary<ObjectIdentifier, ManagedObject> = [:]
    private var classes: [String: ManagedObject.Type] = [:]
    private var classByEntityNumber: [Int: ManagedObject.Type] = [:]
    /// What inserting an object of the last inserted entity needs (seeding inserts many
    /// objects of one entity in a row: no lookup by name, class or entity per object then).
    private let lastInsertedCell = UncheckedCell<InsertionTemplate?>(nil)
    private var lastInserted: InsertionTemplate? {
        get { lastInsertedCell.value }
        _modify { yield &lastInsertedCell.value }
    }
    private let nextTemporaryIDCell = UncheckedCell<Int64>(1)
    var nextTemporaryID: Int64 {
        get { nextTemporaryIDCell.value }
        _modify { yield &nextTemporaryIDCell.value }
    }
    /// Unsaved objects given the primary key they take when saved (see
    /// ``insert(_:primaryKey:)``), by temporary ID.
    var requestedKeys = RequestedKeys()
    /// What to validate per entity number (see `Validation/ValidationPlan.swift`).
    var validationPlans: [Int: ValidationPlan] = [:]
    /// The undo manager, if one is set (see ``undoManager``).
    var installedUndoManager: ContextUndoManager?
    /// The versions read of objects the context let go of (see ``SeenVersions``). Checked
    /// for every object a fetch makes; no access overlaps another.
    private let seenVersionsCell = UncheckedCell(SeenVersions())
    var seenVersions: SeenVersions {
        get { seenVersionsCell.value }
        _modify { yield &seenVersionsCell.value }
    }
    /// What a save in progress changed before its commit, to put back if it fails.
    var saveRestorePoint: SaveRestorePoint?
    /// The conflicts of the save in progress, while its merge policy resolves them.
    var conflictResolution: ConflictResolution?
    /// What changed since the last objects-did-change (see `ManagedObjectContext+Events.swift`);
    /// touched once per inserted object, no access overlapping another.
    private let pendingEventCell = UncheckedCell(PendingEvent())
    var pendingEvent: PendingEvent {
        get { pendingEventCell.value }
        _modify { yield &pendingEventCell.value }
    }
    /// The number of the event changes are noted in now (never 0, the stamp of an object
    /// never noted; below 2³¹, whose bit marks an object inserted in the event).
    var eventNumber: UInt32 = 1
    /// The async sequences of ``events()``.
    let eventStreams = ContextEventStreams()
    /// Called with each notification (fetched-results controllers listen here).
    var eventListeners: [(key: Int, call: (ContextEvent) -> Void)] = []
    var nextListenerKey = 0

    /// What ``save()`` does when an object it writes was changed or deleted in the store
    /// since this context read it, or objects it saves share a uniqueness constraint's
    /// values: ``MergePolicy/error`` (the default) fails with every conflict;
    /// ``MergePolicy/overwrite`` writes this context's version over the stored one; a
    /// subclass of ``MergePolicy`` decides for itself.
    ///
    /// ```swift
    /// context.mergePolicy = .overwrite
    /// try context.save()      // wins over changes saved meanwhile by another process
    /// ```
    public var mergePolicy: MergePolicy = .error

    /// The author a save records in the store's persistent history (Core Data's
    /// `transactionAuthor`), for stores that track history; nil records none.
    public var transactionAuthor: String?

    /// The context's name, recorded as the context name of its saves in the store's
    /// persistent history; nil records none.
    public var name: String?

    /// Whether a save to a store that tracks persistent history writes its history rows
    /// (the default). When GraphStore cannot write them as Core Data would, the save is
    /// refused with ``HistoryError/cannotRecord(path:reason:)``; false saves without them,
    /// and then the app's history readers and CloudKit mirroring never see the change
    /// (Core Data has no such switch: it always records history on such a store).
    public var savesHistory = true

    /// Whether a save validates the objects it writes. A mapping model's run turns it off
    /// for its batch saves, as Core Data's migration validates once, at the end.
    var validatesOnSave = true

    /// Called before every recorded change (object, key, attribute or relationship index);
    /// the undo manager listens here.
    // Read on every change, written only when an undo manager is installed or removed
    // (never during a change: the loops iterate their own copy). Once anything writes it,
    // each read would otherwise pay a runtime exclusivity check on the insert path.
    private let changeObserversCell = UncheckedCell<[(ManagedObject, ChangeKind) throws -> Void]>([])
    var changeObservers: [(ManagedObject, ChangeKind) throws -> Void] {
        get { changeObserversCell.value }
        _modify { yield &changeObserversCell.value }
    }
    /// Called after each successful save with the temporary IDs that became permanent.
    var didSaveObservers: [([ObjectID: ObjectID]) -> Void] = []
    /// Called after each successful save with the IDs of the objects it inserted, changed
    /// and deleted, for other contexts to merge (see `Context/PersistentContainer.swift`).
    var didSaveChanges: ((ObjectChanges) -> Void)?
    /// What typed accessors could not do (see `Typed/ManagedObjectContext+AccessErrors.swift`).
    var accessErrorLog = AccessErrorLog()
    /// The classes of ``EntityObject`` registered with their related classes (see
    /// `Typed/EntityObject.swift`), by identity.
    var registeredEntityClasses: Set<ObjectIdentifier> = []

    /// What is about to change (attribute and relationship indexes are the mapping's).
    enum ChangeKind {
        case attribute(index: Int)
        /// A to-one relationship (its old destination is still in place).
        case relationship(index: Int)
        /// `member` is about to join the to-many relationship at `index`.
        case toManyInsertion(index: Int, member: ManagedObject)
        /// `member` is about to leave the to-many relationship at `index`.
        case toManyRemoval(index: Int, member: ManagedObject)
        case insert
        case delete
    }

    /// The context this one saves into, for a child context (see ``init(parent:)``); nil for
    /// a context that saves to its store.
    public let parent: ManagedObjectContext?
    /// Objects this child context holds that its parent inserted and has not saved yet, by
    /// their temporary IDs (the registry takes permanent IDs only).
    var borrowed: [ObjectID: ManagedObject] = [:]
    /// The child contexts made on this one, told when a save gives their borrowed objects
    /// permanent IDs.
    var children: [WeakContext] = []
    /// How many ranges of temporary serials the root of a tree of contexts has handed to
    /// the contexts below it.
    var temporaryRangesHandedOut: Int64 = 0

    /// Creates a context on a store.
    public init(store: PersistentStore) {
        self.store = store
        self.parent = nil
    }

    /// Creates a child context: a scratch pad over `parent` (Core Data's
    /// `context.parent = viewContext`). It reads the parent's unsaved state (its inserted,
    /// changed and deleted objects) over the store's; ``save()`` pushes its changes into the
    /// parent, not to disk, and the parent's own save writes them; dropping the child
    /// without saving discards them. Children nest.
    ///
    /// ```swift
    /// let scratch = ManagedObjectContext(parent: viewContext)
    /// let entry = try scratch.object(for: entry.objectID)
    /// try entry.set("notes", "edited")
    /// try scratch.save()          // now an unsaved change of viewContext
    /// try viewContext.save()      // now on disk
    /// ```
    public init(parent: ManagedObjectContext) {
        self.store = parent.store
        self.parent = parent
        nextTemporaryID = parent.rootContext.reserveTemporaryRange()
        parent.children.append(WeakContext(self))
    }

    // Relationships hold objects, so a graph forms reference cycles: break them when the
    // context goes away.
    // Objects outliving the context must not point at it (see
    // ``ManagedObject/managedObjectContext``).
    deinit {
        eventStreams.finish()
        registered.forEach { $0.detach() }
        for object in borrowed.values { object.detach() }
        for object in inserted.values { object.detach() }
        for object in deleted.values { object.detach() }
    }

    /// The model of the store.
    public var model: ManagedObjectModel { store.model }

    /// Makes objects of an entity (and its sub-entities without a class of their own)
    /// instances of a subclass.
    public func register(_ type: ManagedObject.Type, forEntity entity: String) {
        classes[entity] = type
        classByEntityNumber = [:]
        lastInserted = nil
    }

    /// The mapping and class of an entity that can be inserted.
    struct InsertionTemplate {
        let mapping: EntityMapping
        let type: ManagedObject.Type
    }

    private func insertionTemplate(_ entityName: String) throws -> InsertionTemplate {
        if let last = lastInserted, last.mapping.name == entityName { return last }
        let mapping = try store.mapping(for: entityName)
        guard !mapping.entity.isAbstract else { throw StoreError.abstractEntity(entityName) }
        let template = InsertionTemplate(mapping: mapping, type: objectClass(for: mapping))
        lastInserted = template
        return template
    }

    func objectClass(for mapping: EntityMapping) -> ManagedObject.Type {
        if let type = classByEntityNumber[mapping.number] { return type }
        let type = model.ancestry(of: mapping.name).reversed().lazy.compactMap { self.classes[$0.name] }.first ?? ManagedObject.self
        classByEntityNumber[mapping.number] = type
        return type
    }

    // MARK: - Changes

    /// Whether anything was inserted, updated or deleted since the last save.
    public var hasChanges: Bool { !inserted.isEmpty || !updated.isEmpty || !deleted.isEmpty }
    /// Objects inserted since the last save, in insertion order.
    public var insertedObjects: [ManagedObject] { Array(inserted.values) }
    /// Objects changed since the last save (not counting inserted or deleted ones).
    public var updatedObjects: [ManagedObject] { Array(updated.values) }
    /// Objects deleted since the last save.
    public var deletedObjects: [ManagedObject] { Array(deleted.values) }
    /// Every object the context knows of.
    public var registeredObjects: [ManagedObject] { Array(registered.values) + Array(borrowed.values) }

    func willChange(_ object: ManagedObject, attributeIndex index: Int) throws {
        try record(object, .attribute(index: index))
    }

    /// `kind` says which member joins or leaves a to-many (the undo manager keeps only that
    /// member, not a copy of the set); to-ones pass nil.
    func willChange(_ object: ManagedObject, relationshipIndex index: Int, _ kind: ChangeKind? = nil) throws {
        try record(object, kind ?? .relationship(index: index))
        if object.snapshot != nil, object.snapshot?.toMany[index] == nil, object.mapping.relationshipInfo[index].isToMany {
            object.snapshot?.toMany[index] = .some(object.toMany[index])
        }
    }

    private func record(_ object: ManagedObject, _ kind: ChangeKind) throws {
        guard object.managedObjectContext === self else { return }
        // An inserted object is already whole and already listed: with no observer there is
        // nothing to record (the common case of seeding: every value set after insert).
        if object.lifecycle == .inserted, changeObservers.isEmpty {
            noteChanged(object)
            return
        }
        // A change is written back as a whole row, so the row must be known first.
        try object.fireFault()
        noteChanged(object)
        for observer in changeObservers { try observer(object, kind) }
        if object.lifecycle == .registered {
            object.takeSnapshotIfNeeded()
            updated[ObjectIdentifier(object)] = object
        }
    }

    // MARK: - Objects

    /// Inserts a new object of an entity, with its default values.
    @discardableResult
    public func insert(_ entityName: String) throws -> ManagedObject {
        let template = try insertionTemplate(entityName)
        let object = template.type.init(objectID: newTemporaryID(for: template.mapping), context: self)
        try completeInsertion(object)
        return object
    }

    /// The next temporary ID for a new object of an entity.
    func newTemporaryID(for mapping: EntityMapping) -> ObjectID {
        let id = ObjectID(temporaryFor: mapping, serial: nextTemporaryID)
        nextTemporaryID += 1
        return id
    }

    /// The mapping of an entity a new object may be made of (not abstract), checked.
    func insertableMapping(_ entityName: String) throws -> EntityMapping {
        try insertionTemplate(entityName).mapping
    }

    /// Makes a newly made object an inserted one: whole, with its default values, listed,
    /// awake. Throws (leaving it unlisted) when an observer refuses the insert.
    func completeInsertion(_ object: ManagedObject) throws {
        let mapping = object.mapping
        object.isFault = false
        object.hasData = true
        object.lifecycle = .inserted
        object.values = mapping.defaultSlots
        for i in mapping.toManyIndices { object.toMany[i] = ToManySet() }
        // Observers run first, so that one refusing the insert (an undo manager with no open
        // group) leaves nothing inserted.
        for observer in changeObservers { try observer(object, .insert) }
        inserted.append(object)
        noteInserted(object)
        object.awakeFromInsert()
    }

    /// Inserts a new object as an instance of a subclass.
    public func insert<T: ManagedObject>(_ type: T.Type, entity: String) throws -> T {
        register(type, forEntity: entity)
        guard let object = try insert(entity) as? T else { throw StoreError.unknownEntity(entity) }
        return object
    }

    /// The object with this ID: the registered one, or a new fault (no store access yet).
    public func object(for id: ObjectID) throws -> ManagedObject {
        if let object = registered[id] { return object }
        guard id.primaryKey != nil else {
            // Inserted objects are found by their temporary ID without a lookup table.
            if let object = inserted.values.first(where: { $0.objectID == id }) { return object }
            if let object = try borrowedObject(for: id) { return object }
            throw StoreError.objectNotFound(id.description)
        }
        let object = objectClass(for: id.mapping).init(objectID: id, context: self)
        registered.insert(object, for: id)
        return object
    }

    /// The stored object of an entity with this primary key, checked to exist.
    public func existingObject(entity: String, primaryKey: Int64) throws -> ManagedObject {
        let mapping = try store.mapping(for: entity)
        for candidate in store.family(of: mapping) {
            let id = store.objectID(candidate, primaryKey: primaryKey)
            if let object = registered[id], !object.isDeleted { return object }
        }
        guard let number = try store.entityNumber(inTable: mapping.table, primaryKey: primaryKey),
            mapping.numbersWithDescendants.contains(number), let concrete = store.mapping(number: number)
        else {
            throw StoreError.objectNotFound("\(entity)/p\(primaryKey)")
        }
        let object = try self.object(for: store.objectID(concrete, primaryKey: primaryKey))
        try object.fireFault()
        return object
    }

    /// The object for a Core Data URI (`x-coredata://<UUID>/Book/p4`), checked to exist.
    public func existingObject(uri: String) throws -> ManagedObject {
        guard let parsed = ObjectURI(uri) else { throw StoreError.objectNotFound(uri) }
        if let uuid = parsed.storeUUID, uuid != store.uuid {
            throw StoreError.objectNotFound("\(uri) (it names store \(uuid); this store is \(store.uuid))")
        }
        return try existingObject(entity: parsed.entity, primaryKey: parsed.primaryKey)
    }

    /// Every object of an entity, sub-entities included unless `exactEntity`: stored ones
    /// (as faults carrying their row), minus deleted ones, plus inserted ones. A shorthand
    /// for ``fetch(_:)-(FetchRequest)`` without a predicate.
    public func fetch(_ entityName: String, exactEntity: Bool = false) throws -> [ManagedObject] {
        var request = FetchRequest(entityName: entityName)
        request.includesSubentities = !exactEntity
        return Array(try fetch(request))
    }

    /// The registered object for a fetched row, made (as a fault holding the row) if new.
    public func materialize(_ row: StoredRow) throws -> ManagedObject {
        let id = store.objectID(row.mapping, primaryKey: row.primaryKey)
        let object = try self.object(for: id)
        if !object.hasData { try apply(row, to: object) }
        return object
    }

    /// Fills an object from its row. The version is set last, once nothing can fail.
    func apply(_ row: StoredRow, to object: ManagedObject) throws {
        for i in row.attributes.indices { object.values[i] = row.slot(at: i) }
        for (i, key) in row.toOne.enumerated() {
            guard let key else {
                object.toOne[i] = ToOneSlot()
                continue
            }
            object.toOne[i] = ToOneSlot(object: nil, id: try destinationID(of: object.mapping, relationship: i, key: key), order: key.order)
        }
        object.version = versionToCheck(number: object.mapping.number, key: row.primaryKey, read: row.version)
        object.hasData = true
        if parent != nil { try adoptParentState(object) }
    }

    /// The version a save of a stored object checks, given the version its row was just
    /// read at: the one this context first read, if it let go of the object since (see
    /// ``SeenVersions``), else `read`.
    @inline(__always)
    func versionToCheck(number: Int, key: Int64, read: Int64) -> Int64 {
        if seenVersions.isEmpty { return read }
        return seenVersions.version(number: number, key: key) ?? read
    }

    // The relationship is read in place, not copied out of the mapping.
    func destinationID(of mapping: EntityMapping, relationship index: Int, key: StoredRow.ForeignKey) throws -> ObjectID {
        guard let declared = store.declaredDestination(of: mapping, relationship: index) else {
            throw StoreError.unknownEntity(mapping.relationships[index].relationship.destination)
        }
        return try store.destinationID(key, declared: declared, hasSubentities: mapping.relationships[index].destinationHasSubentities)
    }

    func loadToMany(_ relationship: RelationshipMapping, of key: Int64) throws -> OrderedSet<ObjectRef> {
        var set: OrderedSet<ObjectRef> = []
        for (pk, number) in try store.destinations(of: relationship, from: key) {
            guard let mapping = store.mapping(number: number) else { continue }
            set.append(ObjectRef(try object(for: store.objectID(mapping, primaryKey: pk))))
        }
        return set
    }

    // MARK: - Delete

    /// Deletes an object. Delete rules run now: nullify clears inverses, cascade deletes
    /// destinations, deny is checked at save, no action leaves inverses as they are.
    public func delete(_ object: ManagedObject) throws {
        guard object.managedObjectContext === self, !object.isDeleted else { return }
        try object.fireFault()
        for observer in changeObservers { try observer(object, .delete) }
        object.prepareForDeletion()
        let wasInserted = object.isInserted
        object.lifecycle = .deleted
        noteDeleted(object)
        if wasInserted {
            inserted.drop(object)
            // A key an earlier attempt of a save handed out is not this object's any more.
            object.pendingKey = nil
        } else {
            updated.removeValue(forKey: ObjectIdentifier(object))
            deleted[ObjectIdentifier(object)] = object
        }
        try applyDeleteRules(object)
        if wasInserted {
            object.managedObjectContext = nil
        }
    }

    private func applyDeleteRules(_ object: ManagedObject) throws {
        for (i, r) in object.mapping.relationships.enumerated() {
            let relationship = r.relationship
            let destinations: [ManagedObject] =
                relationship.isToMany
                ? try object.loadedToMany(i).map(\.object)
                : try object.destination(at: i).map { [$0] } ?? []
            switch relationship.deleteRule {
            case .cascade:
                for destination in destinations where !destination.isDeleted {
                    if let inverse = relationship.inverse { try destination.unlinkInverse(inverse, from: object) }
                    try delete(destination)
                }
            case .nullify:
                guard let inverse = relationship.inverse else { continue }
                for destination in destinations where !destination.isDeleted {
                    try destination.unlinkInverse(inverse, from: object)
                }
            case .deny, .noAction:
                continue
            }
        }
    }

    // MARK: - Rollback

    /// Discards every unsaved change: inserted objects go, deleted ones come back, changed
    /// ones get their saved values again.
    public func rollback() {
        // Observers saw the changes as they were made; they now see them taken back.
        processPendingChanges()
        // Inserts go; deletes come back and changes are undone, as a refresh would show them.
        for object in inserted.values { pendingEvent.deleted[ObjectIdentifier(object)] = object }
        for object in deleted.values { pendingEvent.refreshed[ObjectIdentifier(object)] = object }
        for object in updated.values { pendingEvent.refreshed[ObjectIdentifier(object)] = object }
        defer { processPendingChanges() }
        // As in Core Data: what the undo stack describes no longer exists.
        installedUndoManager?.removeAllActions()
        for object in inserted.values {
            object.managedObjectContext = nil
        }
        for object in Array(updated.values) + Array(deleted.values) {
            if let snapshot = object.snapshot {
                object.values = snapshot.values
                object.toOne = snapshot.toOne
                for (i, set) in snapshot.toMany { object.toMany[i] = set }
            }
            object.snapshot = nil
            object.lifecycle = .registered
            object.dirtyRelationships = []
        }
        inserted = InsertionList()
        requestedKeys = RequestedKeys()
        updated = [:]
        deleted = [:]
        accessErrorLog = AccessErrorLog()
    }

    /// Forgets every object (unsaved changes included) so that memory is released.
    /// Relationships between the forgotten objects are cleared, which breaks the
    /// reference cycles a graph of objects forms. The versions read are forgotten too: an
    /// object read after a reset is a new read, and a save checks the version read then.
    public func reset() {
        noteInvalidatedAll(registered.values.map(\.objectID) + inserted.values.map(\.objectID))
        defer { processPendingChanges() }
        seenVersions.removeAll()
        installedUndoManager?.removeAllActions()
        for object in Array(registered.values) + Array(inserted.values) + Array(deleted.values) + Array(borrowed.values) {
            object.managedObjectContext = nil
            object.releaseRelationships()
            object.snapshot = nil
        }
        registered.removeAll()
        borrowed = [:]
        inserted = InsertionList()
        requestedKeys = RequestedKeys()
        updated = [:]
        deleted = [:]
        accessErrorLog = AccessErrorLog()
    }
}

/// A parsed Core Data object URI: `x-coredata://<UUID>/<Entity>/p<key>`.
struct ObjectURI {
    var storeUUID: String?
    var entity: String
    var primaryKey: Int64

    init?(_ text: String) {
        guard text.hasPrefix("x-coredata://") else { return nil }
        let parts = text.dropFirst("x-coredata://".count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].hasPrefix("p"), let key = Int64(parts[2].dropFirst()) else { return nil }
        storeUUID = parts[0].isEmpty ? nil : String(parts[0])
        entity = String(parts[1])
        primaryKey = key
    }
}
