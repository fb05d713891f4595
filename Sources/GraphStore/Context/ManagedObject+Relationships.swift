import OrderedCollections

/// Relationships: to-one, to-many and ordered to-many, with their inverses kept in step.
///
/// ```swift
/// try book.setObject(fiction, forKey: "category")       // fiction.books now holds book
/// try fiction.add(otherBook, toKey: "books")             // otherBook.category is fiction
/// let books = try fiction.objects(forKey: "books")
/// ```
extension ManagedObject {
    /// The destination of a to-one relationship.
    public func object(forKey key: String) throws -> ManagedObject? {
        let index = try relationshipIndex(key, toMany: false)
        try fireFault()
        guard let id = toOne[index], let context = managedObjectContext else { return nil }
        return try context.object(for: id)
    }

    /// The destinations of a to-many relationship (in order, when ordered).
    public func objects(forKey key: String) throws -> [ManagedObject] {
        let index = try relationshipIndex(key, toMany: true)
        guard let context = managedObjectContext else { return [] }
        return try loadedToMany(index).map { try context.object(for: $0) }
    }

    /// The object IDs of a to-many relationship's destinations, without making objects.
    public func objectIDs(forKey key: String) throws -> [ObjectID] {
        let index = try relationshipIndex(key, toMany: true)
        return Array(try loadedToMany(index))
    }

    /// The destination's ID of a to-one relationship, without making the object.
    public func objectID(forKey key: String) throws -> ObjectID? {
        let index = try relationshipIndex(key, toMany: false)
        try fireFault()
        return toOne[index]
    }

    /// Sets a to-one relationship (nil clears it); the inverse follows.
    public func setObject(_ destination: ManagedObject?, forKey key: String) throws {
        let index = try relationshipIndex(key, toMany: false)
        try checkDestination(destination, of: index)
        try fireFault()
        guard toOne[index] != destination?.objectID else { return }
        let relationship = mapping.relationships[index].relationship
        if let inverseName = relationship.inverse {
            if let old = try object(forKey: key) {
                try old.unlinkInverse(inverseName, from: self)
            }
            if let destination {
                try destination.linkInverse(inverseName, to: self, clearing: key)
            }
        }
        try rawSetToOne(index, destination?.objectID)
    }

    /// Adds an object to a to-many relationship (at the end, when ordered); the inverse follows.
    public func add(_ destination: ManagedObject, toKey key: String) throws {
        let index = try relationshipIndex(key, toMany: true)
        try insert(destination, at: try loadedToMany(index).count, forKey: key)
    }

    /// Inserts an object into an ordered to-many relationship at a position (moving it if
    /// it is already there); the inverse follows.
    public func insert(_ destination: ManagedObject, at position: Int, forKey key: String) throws {
        let index = try relationshipIndex(key, toMany: true)
        try checkDestination(destination, of: index)
        let current = try loadedToMany(index)
        if current.contains(destination.objectID) {
            guard mapping.relationships[index].relationship.isOrdered, current.firstIndex(of: destination.objectID) != position else { return }
            try rawRemoveToMany(index, destination.objectID)
            try rawInsertToMany(index, destination.objectID, at: min(position, current.count - 1))
            return
        }
        if let inverseName = mapping.relationships[index].relationship.inverse {
            try destination.linkInverse(inverseName, to: self, clearing: key)
        }
        try rawInsertToMany(index, destination.objectID, at: position)
    }

    /// Removes an object from a to-many relationship; the inverse follows.
    public func remove(_ destination: ManagedObject, fromKey key: String) throws {
        let index = try relationshipIndex(key, toMany: true)
        guard try loadedToMany(index).contains(destination.objectID) else { return }
        if let inverseName = mapping.relationships[index].relationship.inverse {
            try destination.unlinkInverse(inverseName, from: self)
        }
        try rawRemoveToMany(index, destination.objectID)
    }

    /// Replaces the whole contents of a to-many relationship; inverses follow.
    public func setObjects(_ destinations: [ManagedObject], forKey key: String) throws {
        let wanted = Set(destinations.map(\.objectID))
        for existing in try objects(forKey: key) where !wanted.contains(existing.objectID) {
            try remove(existing, fromKey: key)
        }
        for (position, destination) in destinations.enumerated() {
            try insert(destination, at: position, forKey: key)
        }
    }

    // MARK: - Inverse maintenance

    /// Makes this object point back at `source` through relationship `name`.
    /// `clearing` is the source's relationship, which a previous partner must drop.
    func linkInverse(_ name: String, to source: ManagedObject, clearing sourceKey: String) throws {
        guard let index = mapping.relationshipIndex(of: name) else { return }
        if mapping.relationships[index].relationship.isToMany {
            try rawInsertToMany(index, source.objectID, at: Int.max)
            return
        }
        try fireFault()
        if let previous = toOne[index], previous != source.objectID, let context = managedObjectContext {
            let partner = try context.object(for: previous)
            if let sourceIndex = partner.mapping.relationshipIndex(of: sourceKey) {
                if partner.mapping.relationships[sourceIndex].relationship.isToMany {
                    try partner.rawRemoveToMany(sourceIndex, objectID)
                } else {
                    try partner.rawSetToOne(sourceIndex, nil)
                }
            }
        }
        try rawSetToOne(index, source.objectID)
    }

    /// Makes this object stop pointing at `source` through relationship `name`.
    func unlinkInverse(_ name: String, from source: ManagedObject) throws {
        guard let index = mapping.relationshipIndex(of: name) else { return }
        if mapping.relationships[index].relationship.isToMany {
            try rawRemoveToMany(index, source.objectID)
        } else {
            try fireFault()
            if toOne[index] == source.objectID { try rawSetToOne(index, nil) }
        }
    }

    // MARK: - Raw changes (one side only, recorded)

    func rawSetToOne(_ index: Int, _ id: ObjectID?) throws {
        try fireFault()
        guard toOne[index] != id else { return }
        try managedObjectContext?.willChange(self, key: mapping.relationships[index].relationship.name, relationshipIndex: index)
        toOne[index] = id
    }

    // The set is changed in place (never through a local copy), so adding to a large
    // relationship costs O(1), not a copy of the whole set.
    func rawInsertToMany(_ index: Int, _ id: ObjectID, at position: Int) throws {
        guard !(try loadedToMany(index).contains(id)) else { return }
        try managedObjectContext?.willChange(self, key: mapping.relationships[index].relationship.name, relationshipIndex: index)
        let count = toMany[index]?.count ?? 0
        if position >= count {
            toMany[index]?.append(id)
        } else {
            toMany[index]?.insert(id, at: max(position, 0))
        }
        dirtyRelationships.insert(index)
    }

    func rawRemoveToMany(_ index: Int, _ id: ObjectID) throws {
        guard try loadedToMany(index).contains(id) else { return }
        try managedObjectContext?.willChange(self, key: mapping.relationships[index].relationship.name, relationshipIndex: index)
        toMany[index]?.remove(id)
        dirtyRelationships.insert(index)
    }

    /// The to-many set, loaded from the store on first use (a relationship fault).
    func loadedToMany(_ index: Int) throws -> OrderedSet<ObjectID> {
        if let set = toMany[index] { return set }
        guard let context = managedObjectContext, let key = objectID.primaryKey else {
            toMany[index] = []
            return []
        }
        let set = try context.loadToMany(mapping.relationships[index], of: key)
        toMany[index] = set
        return set
    }

    func relationshipIndex(_ key: String, toMany: Bool) throws -> Int {
        guard let index = mapping.relationshipIndex(of: key) else {
            throw StoreError.unknownKey(entity: entity.name, key: key)
        }
        let relationship = mapping.relationships[index].relationship
        guard relationship.isToMany == toMany else {
            throw RelationshipError.wrongCardinality(entity: entity.name, key: key, isToMany: relationship.isToMany)
        }
        return index
    }

    private func checkDestination(_ destination: ManagedObject?, of index: Int) throws {
        guard let destination else { return }
        let relationship = mapping.relationships[index].relationship
        guard destination.managedObjectContext === managedObjectContext else {
            throw StoreError.foreignObject(destination.objectID.description)
        }
        guard mapping.relationships[index].destinationNumbers.contains(destination.mapping.number) else {
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
