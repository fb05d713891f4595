import OrderedCollections

/// An object of the graph: an instance of an entity, living in a context.
///
/// Values are read in one of three ways, each for its own job:
///
/// - ``get(_:as:)``: an attribute as a Swift type (`String`, `Int64`, `Date`…), the everyday read;
/// - ``value(forKey:)``: an attribute as an ``AttributeValue``, when the type is known at run
///   time only;
/// - ``predicateValue(forKeyPath:)``: a key path through relationships (`category.name`,
///   `pages.@count`), as a predicate sees it.
///
/// Relationships are read with ``object(forKey:)`` and ``objects(forKey:)``, fetched
/// properties with ``objects(forKey:)`` (see `ManagedObject+FetchedProperties.swift`). Attributes are
/// written with ``set(_:_:)`` and ``setValue(_:forKey:)``, which record the change, or
/// ``setPrimitive(_:_:)`` and ``setPrimitiveValue(_:forKey:)``, which do not. An object
/// fetched from the store is a *fault* until one of its values is touched; touching it
/// fills it in.
///
/// Subclass it to give an entity typed accessors and custom behaviour, and register the
/// subclass with ``ManagedObjectContext/register(_:forEntity:)``:
///
/// ```swift
/// final class Book: ManagedObject {
///     var title: String? { get throws { try get("title") } }
///     override func awakeFromInsert() { try? setPrimitiveValue(.date(.now), forKey: "added") }
/// }
/// ```
open class ManagedObject {
    /// The context the object lives in (nil once it is deleted and saved, rolled back,
    /// reset, or its context is gone).
    public internal(set) var managedObjectContext: ManagedObjectContext? {
        get {
            #if DEBUG
            assert(!holdsContext || contextCheck != nil, "\(objectID) points at a context that is gone: it was not detached")
            #endif
            return context
        }
        set {
            context = newValue
            #if DEBUG
            contextCheck = newValue
            holdsContext = newValue != nil
            #endif
        }
    }

    // The object's storage: touched for every object a fetch reads and a save writes, by the
    // object's own methods and its context only, never through overlapping accesses. Release
    // builds skip Swift's run-time exclusivity check on it (`@exclusivity(unchecked)`: without
    // it, inserting 17,000 objects ran 28% more instructions); debug builds keep the check, so
    // the test suite runs with it. With `UncheckedStorage.swift`, this is the library's unsafe
    // code (see ARCHITECTURE.md).
    #if DEBUG
    /// The object's identity; temporary until the object is first saved.
    public internal(set) var objectID: ObjectID
    /// Whether the object's values have not been touched yet.
    public internal(set) var isFault: Bool
    var hasData: Bool
    var values: ValueSlots
    var toOne: ToOneSlots
    var toMany: ToManySlots
    var version: Int64
    var snapshot: Snapshot?
    var dirtyRelationships = IndexMask()
    var lifecycle: Lifecycle = .registered
    var eventStamp: UInt32 = 0
    var pendingKey: Int64?
    var fetchedResults: [String: [ManagedObject]] = [:]
    private unowned(unsafe) var context: ManagedObjectContext?
    /// The same context held weakly: it becomes nil when the context goes, so reading a
    /// dangling ``context`` fails an assertion instead of reading freed memory (the check
    /// never loads ``context`` itself).
    private weak var contextCheck: ManagedObjectContext?
    private var holdsContext = false
    #else
    /// The object's identity; temporary until the object is first saved.
    @exclusivity(unchecked) public internal(set) var objectID: ObjectID
    /// Whether the object's values have not been touched yet.
    @exclusivity(unchecked) public internal(set) var isFault: Bool
    @exclusivity(unchecked) var hasData: Bool
    /// One value per attribute (see ``SlotList``: held inline, no allocation of their own).
    @exclusivity(unchecked) var values: ValueSlots
    /// One slot per relationship (to-many positions stay empty).
    @exclusivity(unchecked) var toOne: ToOneSlots
    /// One set per relationship; nil until loaded (a relationship fault) or for to-ones.
    @exclusivity(unchecked) var toMany: ToManySlots
    /// The version (`Z_OPT`) a save of the object checks.
    @exclusivity(unchecked) var version: Int64
    @exclusivity(unchecked) var snapshot: Snapshot?
    @exclusivity(unchecked) var dirtyRelationships = IndexMask()
    @exclusivity(unchecked) var lifecycle: Lifecycle = .registered
    /// The context's event in which the object's change was last noted for objects-did-change
    /// (see `ManagedObjectContext+Events.swift`); beside `lifecycle`, it takes no room of its own.
    @exclusivity(unchecked) var eventStamp: UInt32 = 0
    /// The primary key handed out during a save, before it is known to have committed.
    @exclusivity(unchecked) var pendingKey: Int64?
    /// The results of the fetched properties read so far, by name: kept until the object
    /// is refreshed, reloaded or its context reset (see `ManagedObject+FetchedProperties.swift`).
    /// Empty, it is one word and no allocation.
    @exclusivity(unchecked) var fetchedResults: [String: [ManagedObject]] = [:]
    /// The context, held without a reference count, for speed (an object is made for every
    /// row a fetch reads, and its context is read on every change). Safe because of an
    /// invariant: the context keeps track of every object that points at it (registered,
    /// inserted or deleted) and clears this before it goes away (`detach()`), so it is never
    /// left dangling. Debug builds check it against a weak reference.
    @exclusivity(unchecked) private unowned(unsafe) var context: ManagedObjectContext?
    #endif

    /// The object's entity mapping (entity, table, columns): its ID's, kept apart as a
    /// constant because the ID changes (temporary to permanent) and the entity never does.
    /// Reading a constant of the object needs no retain of the mapping, where reading it
    /// through the ID did: every `value(forKey:)` and relationship access looks names up here.
    public let mapping: EntityMapping

    enum Lifecycle {
        case registered, inserted, deleted
    }

    /// What the object held when it was last saved or fetched (kept from its first change
    /// on, for ``ManagedObjectContext/rollback()`` and change detection).
    ///
    /// A class, so that the object carries one reference to it rather than the whole state
    /// inline (most objects never have one, and every object is made and freed with it).
    final class Snapshot {
        var values: ValueSlots
        var toOne: ToOneSlots
        var toMany: [Int: ToManySet?]

        init(values: ValueSlots, toOne: ToOneSlots, toMany: [Int: ToManySet?]) {
            self.values = values
            self.toOne = toOne
            self.toMany = toMany
        }
    }

    /// Creates an object; the context calls this (subclasses registered for an entity must
    /// keep this initializer).
    public required init(objectID: ObjectID, context: ManagedObjectContext) {
        self.objectID = objectID
        self.context = context
        let mapping = objectID.mapping
        self.mapping = mapping
        self.isFault = true
        self.hasData = false
        // Empty slots: nothing is allocated for entities with up to four attributes and two
        // relationships (values and to-ones inline, to-manys only once one is loaded or set).
        self.values = ValueSlots(repeating: .value(nil), count: mapping.attributeTypes.count)
        self.toOne = ToOneSlots(repeating: ToOneSlot(), count: mapping.relationshipInfo.count)
        self.toMany = ToManySlots(count: mapping.relationshipInfo.count)
        self.version = 0
        #if DEBUG
        self.contextCheck = context
        self.holdsContext = true
        #endif
    }

    /// The object's entity.
    public var entity: EntityDescription { mapping.entity }
    /// Whether the object was inserted and not yet saved.
    public var isInserted: Bool { lifecycle == .inserted }
    /// Whether the object was deleted and the delete not yet saved.
    public var isDeleted: Bool { lifecycle == .deleted }
    /// Whether the object has unsaved changes to its values or relationships.
    public var isUpdated: Bool { snapshot != nil }
    /// Whether the object is inserted, deleted or updated.
    public var hasChanges: Bool { lifecycle != .registered || snapshot != nil }

    // MARK: - Life cycle hooks

    /// Called once, when the object is inserted: set computed defaults here (with
    /// ``setPrimitiveValue(_:forKey:)`` to keep them out of change tracking if you wish).
    open func awakeFromInsert() {}

    /// Called when a fault is filled from the store.
    open func awakeFromFetch() {}

    /// Called for every inserted, updated and deleted object at the start of a save, and
    /// again each time the save's merge policy has resolved conflicts (it may have changed
    /// the object): write it so that running it twice does what running it once does, as
    /// Core Data asks of its `willSave`.
    open func willSave() {}

    /// Called after a save that included this object.
    open func didSave() {}

    /// Called when the object is deleted, before the delete rules run: its relationships
    /// still hold their objects (Core Data's `prepareForDeletion`, for clean-up such as
    /// updating a count on a related object).
    open func prepareForDeletion() {}

    // MARK: - Validation (the checks are in `Validation/ManagedObject+Validation.swift`)

    /// Validates one attribute's value: the model's rules for the key (mandatory value,
    /// bounds, length, pattern), then, in an override, your own. Core Data's
    /// `validate<Key>` methods become a `switch key` in an override. Saves call it for
    /// every attribute of every inserted and updated object; throw a ``ValidationError``.
    ///
    /// ```swift
    /// override func validateValue(_ value: AttributeValue?, forKey key: String) throws {
    ///     try super.validateValue(value, forKey: key)
    ///     if key == "firstName", (value?.stringValue ?? "").isEmpty {
    ///         throw ValidationError(self, key: key, value: value, reason: "first name cannot be empty")
    ///     }
    /// }
    /// ```
    open func validateValue(_ value: AttributeValue?, forKey key: String) throws {
        try validateAgainstModel(value, forKey: key)
    }

    /// Whether the object may be inserted as it is: ``validateValue(_:forKey:)`` for each
    /// attribute and the size rules of each relationship. Throws a ``ValidationError``, or
    /// ``MultipleValidationErrors`` (1560) for several. Override it for rules that span
    /// properties, calling `super` first (``MultipleValidationErrors/collect(_:)`` keeps both).
    open func validateForInsert() throws {
        try MultipleValidationErrors.throwIfAny(try standardValidationErrors())
    }

    /// Whether the object's changed state is valid: the same checks as
    /// ``validateForInsert()``, for updated objects.
    open func validateForUpdate() throws {
        try MultipleValidationErrors.throwIfAny(try standardValidationErrors())
    }

    /// Whether the object may be deleted: every relationship with the Deny delete rule must
    /// be empty (1600). Ask before deleting, or override it to refuse deletes of your own.
    ///
    /// ```swift
    /// override func validateForDelete() throws {
    ///     try super.validateForDelete()
    ///     if try !objects(forKey: "notes").isEmpty { throw ValidationError(self, key: "notes", reason: "the user still has notes") }
    /// }
    /// ```
    open func validateForDelete() throws {
        try MultipleValidationErrors.throwIfAny(try deleteRuleErrors())
    }

    // MARK: - Faults

    /// Fills a fault's values from the store. Does nothing for an object that has its data.
    public func fireFault() throws {
        guard isFault else { return }
        if !hasData {
            guard let context = managedObjectContext, let key = objectID.primaryKey else {
                throw StoreError.objectNotFound(objectID.description)
            }
            guard let row = try context.store.row(of: mapping, primaryKey: key), row.entityNumber == mapping.number else {
                throw StoreError.objectNotFound(objectID.uriRepresentation)
            }
            // A value that cannot be read is an error when it is asked for, not now.
            try context.apply(row, to: self)
        }
        isFault = false
        awakeFromFetch()
    }

    // MARK: - Attributes

    /// The value of an attribute, as an ``AttributeValue``: for code that learns the
    /// attribute's type at run time (a generic exporter, a shell). Knowing the type, use
    /// ``get(_:as:)``; for a key path through relationships, ``predicateValue(forKeyPath:)``.
    /// Reading never records a change, so this is also Core Data's `primitiveValue(forKey:)`.
    ///
    /// A value kept in an external data file is read now (the first time it is asked
    /// for); a missing file is ``StoreError/externalDataMissing(entity:primaryKey:key:file:)``.
    /// A stored value that cannot be read as the attribute's type is
    /// ``StoreError/malformedValue(entity:primaryKey:key:column:found:expected:)``. Either
    /// error is about this value only: the object's other values read as usual. A fetched
    /// property, an array of objects, is ``FetchedPropertyError/notASingleValue(entity:key:)``
    /// here (Core Data's `value(forKey:)` returns it): read it with ``objects(forKey:)``.
    public func value(forKey key: String) throws -> AttributeValue? {
        let index = try attributeIndex(key)
        // The check is here, not only in fireFault, so that a filled object costs no call.
        if isFault { try fireFault() }
        if case .value(let value) = values[index] { return value }
        return try attributeValue(at: index)
    }

    /// Where the value of an attribute kept outside the database is, without reading it;
    /// nil when the attribute's value is not (or no longer) a stored external reference.
    ///
    /// ```swift
    /// if let file = try user.externalDataReference(forKey: "photo"), !file.exists { print("missing: \(file.path)") }
    /// ```
    public func externalDataReference(forKey key: String) throws -> ExternalDataReference? {
        let index = try attributeIndex(key)
        if isFault { try fireFault() }
        return values[index].deferred?.externalReference
    }

    /// The value in slot `index`, a deferred one read (the object's data must be at hand).
    func attributeValue(at index: Int) throws(StoreError) -> AttributeValue? {
        try slotValue(values[index], at: index)
    }

    /// The value a slot stands for at attribute `index` of this object.
    func slotValue(_ slot: AttributeSlot, at index: Int) throws(StoreError) -> AttributeValue? {
        switch slot {
        case .value(let value): return value
        case .deferred(let deferred): return try deferred.value(of: mapping, attribute: index, primaryKey: objectID.primaryKey ?? 0)
        }
    }

    /// Sets an attribute, recording the change. The value must fit the attribute's type.
    public func setValue(_ value: AttributeValue?, forKey key: String) throws {
        let index = try attributeIndex(key, writing: true)
        let normalized = try checked(value, at: index)
        try fireFault()
        guard values[index] != .value(normalized) else { return }
        try managedObjectContext?.willChange(self, attributeIndex: index)
        values[index] = .value(normalized)
    }

    /// Sets an attribute without recording a change (Core Data's primitive setter).
    public func setPrimitiveValue(_ value: AttributeValue?, forKey key: String) throws {
        let index = try attributeIndex(key, writing: true)
        let normalized = try checked(value, at: index)
        try fireFault()
        // Not a recorded change, but one a failed save must still take back (a `willSave`
        // hook setting a timestamp).
        managedObjectContext?.saveRestorePoint?.keep(self)
        values[index] = .value(normalized)
    }

    /// Reads an attribute as a Swift type: the everyday read (see ``value(forKey:)`` for
    /// reads whose type is known at run time only).
    ///
    /// ```swift
    /// let title = try book.get("title", as: String.self)   // String?
    /// ```
    public func get<T: AttributeConvertible>(_ key: String, as type: T.Type = T.self) throws -> T? {
        guard let value = try value(forKey: key) else { return nil }
        guard let converted = T(attributeValue: value) else {
            throw StoreError.typeMismatch(entity: entity.name, key: key, expected: mapping.attributes[try attributeIndex(key)].attribute.type, found: "\(T.self)")
        }
        return converted
    }

    /// Writes an attribute from a Swift value (nil clears it).
    public func set<T: AttributeConvertible>(_ key: String, _ value: T?) throws {
        try setValue(value?.attributeValue, forKey: key)
    }

    /// The attribute and relationship values that changed since the last save, by key: for
    /// an inserted object, every one it has a value for (see ``changedValues()``).
    public func changedKeys() -> [String] {
        if isInserted { return keysWithValues }
        guard let snapshot else { return [] }
        return keysChanged(from: snapshot.values, snapshot.toOne) { snapshot.toMany[$0] != nil }
    }

    /// The attributes and to-ones whose values differ from `values` and `toOne`, then the
    /// to-manys `toManyChanged` names, in model order.
    func keysChanged(from values: ValueSlots, _ toOne: ToOneSlots, toManyChanged: (Int) -> Bool) -> [String] {
        var keys: [String] = []
        for (i, a) in mapping.attributes.enumerated() where values[i] != self.values[i] {
            keys.append(a.attribute.name)
        }
        for (i, r) in mapping.relationships.enumerated() {
            if r.relationship.isToMany ? toManyChanged(i) : !toOne[i].isSame(as: self.toOne[i]) {
                keys.append(r.relationship.name)
            }
        }
        return keys
    }

    /// The properties an inserted object has a value for, in model order.
    private var keysWithValues: [String] {
        var keys: [String] = []
        for (i, name) in mapping.attributeNames.enumerated() where values[i] != .value(nil) { keys.append(name) }
        for (i, r) in mapping.relationships.enumerated() {
            let empty = r.relationship.isToMany ? members(i).isEmpty : toOne[i].isEmpty
            if !empty { keys.append(r.relationship.name) }
        }
        return keys
    }

    /// The committed (last saved or fetched) value of an attribute.
    public func committedValue(forKey key: String) throws -> AttributeValue? {
        let index = try attributeIndex(key)
        try fireFault()
        return try slotValue(snapshot?.values[index] ?? values[index], at: index)
    }

    /// The index of attribute `key`; a fetched property named so is refused as read-only
    /// (`writing`) or as not a single value.
    func attributeIndex(_ key: String, writing: Bool = false) throws -> Int {
        guard let index = mapping.attributeIndex(of: key) else {
            throw notStoredPropertyError(key, writing: writing)
        }
        return index
    }

    private func checked(_ value: AttributeValue?, at index: Int) throws(StoreError) -> AttributeValue? {
        guard let value else { return nil }
        let type = mapping.attributeTypes[index]
        // Text for a string attribute, the commonest case, needs no conversion.
        if type == .string, case .string = value { return value }
        guard RowCodec.fits(value, type) else {
            throw .typeMismatch(entity: entity.name, key: mapping.attributeNames[index], expected: type, found: "\(value)")
        }
        return RowCodec.normalize(value, type)
    }

    /// Keeps the committed state before the first change.
    func takeSnapshotIfNeeded() {
        if snapshot == nil, lifecycle != .inserted {
            snapshot = Snapshot(values: values, toOne: toOne, toMany: [:])
        }
    }
}

extension ManagedObject: CustomStringConvertible {
    /// `Book/p4`, with `(fault)` while not yet touched.
    public var description: String { objectID.description + (isFault ? " (fault)" : "") }
}

/// A managed object as a set element: equal by identity, hashed by address, so that
/// membership does not depend on the object's ID (which changes when it is first saved).
struct ObjectRef: Hashable {
    let object: ManagedObject

    init(_ object: ManagedObject) { self.object = object }

    static func == (a: ObjectRef, b: ObjectRef) -> Bool { a.object === b.object }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(object)) }
}
