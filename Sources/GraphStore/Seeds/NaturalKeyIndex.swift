/// The objects of a context by natural key (``NaturalKeys``), entity by entity, read once
/// when first asked for and kept up to date with objects added since.
///
/// ```swift
/// let index = NaturalKeyIndex(context: context, keys: keys)
/// let fiction = try index.object(of: "BookCategory", key: "Fiction")
/// ```
public final class NaturalKeyIndex {
    /// The context the objects live in.
    public let context: ManagedObjectContext
    /// The keys objects are found by.
    public let keys: NaturalKeys
    private var objects: [String: [String: ManagedObject]] = [:]
    /// New objects whose key is not complete yet (a to-one part not set): left out of the
    /// tables until ``add(_:)`` gives them.
    private var held: Set<ObjectIdentifier> = []

    /// An index of a context's objects.
    public init(context: ManagedObjectContext, keys: NaturalKeys) {
        self.context = context
        self.keys = keys
    }

    /// The object of an entity (or a sub-entity) whose key attribute's text is `key`, if any.
    /// An entity without a natural key is an error: it cannot be matched.
    public func object(of entity: String, key: String) throws -> ManagedObject? {
        try table(of: entity)[key]
    }

    /// The key text of an object (nil when its entity has no key or every part of it is nil).
    /// A one-part key's text is the value's seed text (``SeedValueText``), or for a to-one
    /// part the destination's key text; a key of several parts is a JSON array of those texts
    /// (`["Salt","Pancakes"]`, null for a part with no value).
    public func keyText(of object: ManagedObject) throws -> String? {
        try keyText(of: object, depth: 0)
    }

    /// The key text of parts' texts, as ``keyText(of:)`` spells it.
    public static func keyText(parts: [String?]) -> String? {
        guard parts.contains(where: { $0 != nil }) else { return nil }
        if parts.count == 1 { return parts[0] }
        return "[" + parts.map { $0.map(SeedUpdate.Step.json) ?? "null" }.joined(separator: ",") + "]"
    }

    /// The column of a file written with ``NaturalKeys/keepsObjectIDs`` that holds the
    /// object ID's number of an object whose entity has no key.
    public static let objectIDColumn = "@id"

    /// The name of an object of an entity without a key under ``NaturalKeys/keepsObjectIDs``:
    /// `p` and its primary key (saved, or asked for by an import), else nil.
    func objectIDText(of object: ManagedObject) -> String? {
        guard keys.keepsObjectIDs, let key = object.objectID.primaryKey ?? context.requestedKey(of: object) else { return nil }
        return "p\(key)"
    }

    private func keyText(of object: ManagedObject, depth: Int) throws -> String? {
        guard let parts = keys.parts(of: object.entity.name) else { return depth == 0 ? objectIDText(of: object) : nil }
        // A key reaching itself through to-ones (a parent chain that loops) has no text.
        guard depth < 32 else { throw SeedError("\(object.entity.name): its key (\(parts.joined(separator: "+"))) leads through more than 32 objects; a chain of to-ones loops") }
        let model = context.store.model
        let texts: [String?] = try parts.map { part in
            if model.relationship(part, of: object.entity.name) != nil {
                guard let destination = try object.object(forKey: part) else { return nil }
                guard keys.parts(of: destination.entity.name) != nil else {
                    throw SeedError("\(object.entity.name).\(part) is part of its key, but \(destination.entity.name) has no key to name it by; give --key \(destination.entity.name)=ATTRIBUTE")
                }
                return try keyText(of: destination, depth: depth + 1)
            }
            return try object.value(forKey: part).map(SeedValueText.format)
        }
        return Self.keyText(parts: texts)
    }

    /// Leaves a new object out of the index until ``add(_:)``: its key is not complete yet
    /// (an import sets the to-ones its key names after inserting every object).
    public func hold(_ object: ManagedObject) {
        held.insert(ObjectIdentifier(object))
    }

    /// Records an object inserted since the index was read (and no longer held).
    public func add(_ object: ManagedObject) throws {
        held.remove(ObjectIdentifier(object))
        guard let key = try keyText(of: object) else { return }
        for entity in context.store.model.ancestry(of: object.entity.name).map(\.name) where objects[entity]?[key] == nil {
            objects[entity]?[key] = object
        }
    }

    /// Forgets an object deleted since the index was read.
    public func remove(_ object: ManagedObject) throws {
        guard let key = try keyText(of: object) else { return }
        for entity in context.store.model.ancestry(of: object.entity.name).map(\.name) { objects[entity]?[key] = nil }
    }

    private func table(of entity: String) throws -> [String: ManagedObject] {
        if let table = objects[entity] { return table }
        guard keys.parts(of: entity) != nil || keys.keepsObjectIDs else {
            throw SeedError("\(entity) has no natural key to match objects by; give one with --key \(entity)=ATTRIBUTE")
        }
        var table: [String: ManagedObject] = [:]
        // Stored objects first, then unsaved inserts, the first of a key kept: a new object
        // that repeats a stored key is then found to be a second one.
        for object in try context.fetch(entity) where !object.isDeleted && !object.isInserted {
            if let key = try keyText(of: object), table[key] == nil { table[key] = object }
        }
        for object in context.insertedObjects where context.store.model.isKind(object.entity.name, of: entity) && !held.contains(ObjectIdentifier(object)) {
            if let key = try keyText(of: object), table[key] == nil { table[key] = object }
        }
        objects[entity] = table
        return table
    }
}

/// A seed step that cannot be done, with what and why.
public struct SeedError: Error, CustomStringConvertible {
    /// The message.
    public var description: String

    /// An error with a message.
    public init(_ message: String) { description = message }
}
