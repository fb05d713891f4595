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

    /// The key text of an object (nil when its entity has no key or the key is nil).
    public func keyText(of object: ManagedObject) throws -> String? {
        guard let attribute = keys.attribute(of: object.entity.name), let value = try object.value(forKey: attribute) else { return nil }
        return SeedValueText.format(value)
    }

    /// Records an object inserted since the index was read.
    public func add(_ object: ManagedObject) throws {
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
        guard keys.attribute(of: entity) != nil else {
            throw SeedError("\(entity) has no natural key to match objects by; give one with --key \(entity)=ATTRIBUTE")
        }
        var table: [String: ManagedObject] = [:]
        // Stored objects first, then unsaved inserts, the first of a key kept: a new object
        // that repeats a stored key is then found to be a second one.
        for object in try context.fetch(entity) where !object.isDeleted && !object.isInserted {
            if let key = try keyText(of: object), table[key] == nil { table[key] = object }
        }
        for object in context.insertedObjects where context.store.model.isKind(object.entity.name, of: entity) {
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
