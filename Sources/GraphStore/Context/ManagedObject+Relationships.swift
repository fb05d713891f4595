import OrderedCollections

/// Relationships: to-one, to-many and ordered to-many, with their inverses kept in step.
///
/// Relationships hold the destination objects themselves (faults until touched), so an
/// object keeps its place in every relationship when its ID changes at its first save.
///
/// ```swift
/// try book.setObject(fiction, forKey: "category")       // fiction.books now holds book
/// try fiction.add(otherBook, toKey: "books")             // otherBook.category is fiction
/// let books = try fiction.objects(forKey: "books")
/// ```
extension ManagedObject {
    /// The destination of a to-one relationship.
    public func object(forKey key: String) throws -> ManagedObject? {
        try destination(at: try relationshipIndex(key, toMany: false))
    }

    /// The destinations of a to-many relationship (in order, when ordered), or the results
    /// of a fetched property (in its fetch request's order: see `ManagedObject+FetchedProperties.swift`).
    ///
    /// ```swift
    /// let books = try fiction.objects(forKey: "books")
    /// let bargains = try fiction.objects(forKey: "bargainBooks")   // a fetched property
    /// ```
    public func objects(forKey key: String) throws -> [ManagedObject] {
        if let fetched = fetchedPropertyUnlessStored(key) { return try fetchedObjects(fetched) }
        return try loadedToMany(try relationshipIndex(key, toMany: true)).map(\.object)
    }

    /// The object IDs of a to-many relationship's destinations, or of a fetched property's results.
    public func objectIDs(forKey key: String) throws -> [ObjectID] {
        if let fetched = fetchedPropertyUnlessStored(key) { return try fetchedObjects(fetched).map(\.objectID) }
        return try loadedToMany(try relationshipIndex(key, toMany: true)).map(\.object.objectID)
    }

    /// The destination's ID of a to-one relationship, without making the object.
    public func objectID(forKey key: String) throws -> ObjectID? {
        let index = try relationshipIndex(key, toMany: false)
        if isFault { try fireFault() }
        return toOne[index].destinationID
    }

    /// Sets a to-one relationship (nil clears it); the inverse follows.
    public func setObject(_ destination: ManagedObject?, forKey key: String) throws {
        let index = try relationshipIndex(key, toMany: false, writing: true)
        try checkDestination(destination, of: index)
        let old = try self.destination(at: index)
        guard old !== destination else { return }
        if let inverseName = mapping.relationshipInfo[index].inverse {
            try old?.unlinkInverse(inverseName, from: self)
            try destination?.linkInverse(inverseName, to: self, clearing: key)
        }
        try rawSetToOne(index, destination)
    }

    /// Adds an object to a to-many relationship (at the end, when ordered); the inverse follows.
    public func add(_ destination: ManagedObject, toKey key: String) throws {
        try insert(destination, at: Int.max, forKey: key)
    }

    /// Inserts an object into an ordered to-many relationship at a position (moving it if
    /// it is already there); the inverse follows.
    public func insert(_ destination: ManagedObject, at position: Int, forKey key: String) throws {
        let index = try relationshipIndex(key, toMany: true, writing: true)
        try checkDestination(destination, of: index)
        let current = try loadedToMany(index)
        let ref = ObjectRef(destination)
        if let existing = current.firstIndex(of: ref) {
            let target = min(max(position, 0), current.count - 1)
            guard mapping.relationshipInfo[index].isOrdered, existing != target else { return }
            try rawRemoveToMany(index, destination)
            try rawInsertToMany(index, destination, at: target)
            return
        }
        if let inverseName = mapping.relationshipInfo[index].inverse {
            try destination.linkInverse(inverseName, to: self, clearing: key)
        }
        try rawInsertToMany(index, destination, at: position)
    }

    /// Removes an object from a to-many relationship; the inverse follows.
    public func remove(_ destination: ManagedObject, fromKey key: String) throws {
        let index = try relationshipIndex(key, toMany: true, writing: true)
        guard try loadedToMany(index).contains(ObjectRef(destination)) else { return }
        if let inverseName = mapping.relationshipInfo[index].inverse {
            try destination.unlinkInverse(inverseName, from: self)
        }
        try rawRemoveToMany(index, destination)
    }

    /// Replaces the whole contents of a to-many relationship; inverses follow.
    public func setObjects(_ destinations: [ManagedObject], forKey key: String) throws {
        _ = try relationshipIndex(key, toMany: true, writing: true)
        let wanted = Set(destinations.map(ObjectRef.init))
        for existing in try objects(forKey: key) where !wanted.contains(ObjectRef(existing)) {
            try remove(existing, fromKey: key)
        }
        for (position, destination) in destinations.enumerated() {
            try insert(destination, at: position, forKey: key)
        }
    }

    // MARK: - Inverse maintenance

    /// Makes this object point back at `source` through relationship `name`. A previous
    /// partner of a to-one inverse drops this object from its own side of the
    /// relationship (`sourceKey`).
    func linkInverse(_ name: String, to source: ManagedObject, clearing sourceKey: String) throws {
        guard let index = mapping.relationshipIndex(of: name) else { return }
        if mapping.relationshipInfo[index].isToMany {
            // A to-one source that did not point here cannot be in this set yet.
            if let sourceIndex = source.mapping.relationshipIndex(of: sourceKey), !source.mapping.relationshipInfo[sourceIndex].isToMany {
                try rawAppendKnownAbsent(index, source)
            } else {
                try rawInsertToMany(index, source, at: Int.max)
            }
            return
        }
        if let previous = try destination(at: index), previous !== source,
            let sourceIndex = previous.mapping.relationshipIndex(of: sourceKey)
        {
            if previous.mapping.relationshipInfo[sourceIndex].isToMany {
                try previous.rawRemoveToMany(sourceIndex, self)
            } else {
                try previous.rawSetToOne(sourceIndex, nil)
            }
        }
        try rawSetToOne(index, source)
    }

    /// Makes this object stop pointing at `source` through relationship `name`.
    func unlinkInverse(_ name: String, from source: ManagedObject) throws {
        guard let index = mapping.relationshipIndex(of: name) else { return }
        if mapping.relationshipInfo[index].isToMany {
            try rawRemoveToMany(index, source)
        } else if try destination(at: index) === source {
            try rawSetToOne(index, nil)
        }
    }

    // MARK: - Raw changes (one side only, recorded)

    func rawSetToOne(_ index: Int, _ object: ManagedObject?) throws {
        guard try destination(at: index) !== object else { return }
        try managedObjectContext?.willChange(self, relationshipIndex: index)
        // One store of the whole slot (through the list's setter) rather than two writes
        // through its `_modify` coroutine.
        toOne[index] = ToOneSlot(object: object, id: nil, order: toOne[index].order)
    }

    // The set is changed in place (never through a local copy), so adding to a large
    // relationship costs O(1), not a copy of the whole set.
    func rawInsertToMany(_ index: Int, _ object: ManagedObject, at position: Int) throws {
        let ref = ObjectRef(object)
        guard !(try loadedToMany(index).contains(ref)) else { return }
        try managedObjectContext?.willChange(self, relationshipIndex: index, .toManyInsertion(index: index, member: object))
        _ = toMany[index]?.insert(ref, at: position)
        dirtyRelationships.insert(index)
    }

    /// Appends a member that cannot be present yet: inverse maintenance of a to-one that
    /// did not point here before.
    func rawAppendKnownAbsent(_ index: Int, _ object: ManagedObject) throws {
        if toMany[index] == nil { _ = try loadedToMany(index) }
        try managedObjectContext?.willChange(self, relationshipIndex: index, .toManyInsertion(index: index, member: object))
        toMany.update(index) { $0?.appendKnownAbsent(ObjectRef(object)) }
        dirtyRelationships.insert(index)
    }

    func rawRemoveToMany(_ index: Int, _ object: ManagedObject) throws {
        let ref = ObjectRef(object)
        guard try loadedToMany(index).contains(ref) else { return }
        try managedObjectContext?.willChange(self, relationshipIndex: index, .toManyRemoval(index: index, member: object))
        _ = toMany[index]?.remove(ref)
        dirtyRelationships.insert(index)
    }

    /// The members of a loaded to-many (empty when not loaded).
    func members(_ index: Int) -> OrderedSet<ObjectRef> {
        toMany[index]?.settled() ?? []
    }

    /// Cuts the object loose from its context, which is going away.
    func detach() {
        managedObjectContext = nil
        releaseRelationships()
    }

    /// Drops every relationship this object holds, fetched properties' results included
    /// (used when its context goes away or is reset).
    func releaseRelationships() {
        for index in toOne.indices where toOne[index].object != nil { toOne[index] = ToOneSlot() }
        for index in toMany.indices where toMany[index] != nil { toMany[index] = nil }
        if !fetchedResults.isEmpty { fetchedResults = [:] }
    }

    /// The destination of the to-one at `index`, resolving a stored ID into an object.
    func destination(at index: Int) throws -> ManagedObject? {
        try fireFault()
        if let object = toOne[index].object { return object }
        guard let id = toOne[index].id, let context = managedObjectContext else { return nil }
        let object = try context.object(for: id)
        toOne[index].object = object
        return object
    }

    /// The to-many set, loaded from the store on first use (a relationship fault).
    func loadedToMany(_ index: Int) throws -> OrderedSet<ObjectRef> {
        if toMany[index] != nil { return members(index) }
        guard let context = managedObjectContext, let key = objectID.primaryKey else {
            toMany[index] = ToManySet()
            return []
        }
        let set = try context.loadToMany(mapping.relationships[index], of: key)
        toMany[index] = ToManySet(set)
        return set
    }

    /// The index of relationship `key`, used as a to-many or a to-one; a fetched property
    /// named so is refused as read-only (`writing`) or as not a single object.
    func relationshipIndex(_ key: String, toMany: Bool, writing: Bool = false) throws -> Int {
        guard let index = mapping.relationshipIndex(of: key) else {
            throw notStoredPropertyError(key, writing: writing)
        }
        let isToMany = mapping.relationshipInfo[index].isToMany
        guard isToMany == toMany else {
            throw RelationshipError.wrongCardinality(entity: entity.name, key: key, isToMany: isToMany)
        }
        return index
    }

    private func checkDestination(_ destination: ManagedObject?, of index: Int) throws {
        guard let destination else { return }
        guard destination.managedObjectContext === managedObjectContext else {
            throw StoreError.foreignObject(destination.objectID.description)
        }
        guard mapping.relationshipInfo[index].destinationNumbers.contains(destination.mapping.number) else {
            let relationship = mapping.relationships[index].relationship
            throw RelationshipError.wrongDestination(
                entity: entity.name, key: relationship.name, expected: relationship.destination, found: destination.entity.name)
        }
    }
}

/// A relationship used the wrong way.
public enum RelationshipError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A to-one used as a to-many, or the reverse.
    case wrongCardinality(entity: String, key: String, isToMany: Bool)
    /// An object of the wrong entity given as a destination.
    case wrongDestination(entity: String, key: String, expected: String, found: String)

    public var description: String {
        switch self {
        case .wrongCardinality(let entity, let key, let isToMany):
            "\(entity).\(key) is a \(isToMany ? "to-many" : "to-one") relationship; use \(isToMany ? "add/remove/objects(forKey:)" : "setObject/object(forKey:)")"
        case .wrongDestination(let entity, let key, let expected, let found):
            "\(entity).\(key) holds \(expected) objects, not \(found)"
        }
    }
}
