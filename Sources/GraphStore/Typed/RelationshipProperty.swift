/// A Swift type a ``Relationship`` property may have: `Destination?` for a to-one,
/// `Set<Destination>` for a to-many, `[Destination]` for an ordered to-many, where
/// `Destination` is the destination entity's class.
///
/// Reading a to-many makes the whole collection; to add or remove one member of a large
/// relationship, ``ManagedObject/add(_:toKey:)`` and ``ManagedObject/remove(_:fromKey:)``
/// (or the generated `addTo…`/`removeFrom…` methods) change only that member.
public protocol RelationshipProperty {
    /// The property's value as `object` holds it.
    static func propertyValue(of object: ManagedObject, key: String) throws -> Self
    /// Makes `object` hold this value (inverses follow).
    func store(in object: ManagedObject, key: String) throws
    /// What the property reads when it cannot be read: nil, or an empty collection.
    static var emptyPropertyValue: Self { get }
}

extension Optional: RelationshipProperty where Wrapped: ManagedObject {
    public static func propertyValue(of object: ManagedObject, key: String) throws -> Self {
        guard let destination = try object.object(forKey: key) else { return nil }
        return try destination.typed(Wrapped.self)
    }

    public func store(in object: ManagedObject, key: String) throws {
        try object.setObject(self, forKey: key)
    }

    public static var emptyPropertyValue: Self { nil }
}

extension Set: RelationshipProperty where Element: ManagedObject {
    public static func propertyValue(of object: ManagedObject, key: String) throws -> Self {
        let members = try object.objects(forKey: key)
        var set = Set(minimumCapacity: members.count)
        for member in members { set.insert(try member.typed(Element.self)) }
        return set
    }

    public func store(in object: ManagedObject, key: String) throws {
        try object.setObjects(Array(self), forKey: key)
    }

    public static var emptyPropertyValue: Self { [] }
}

extension Array: RelationshipProperty where Element: ManagedObject {
    public static func propertyValue(of object: ManagedObject, key: String) throws -> Self {
        try object.objects(forKey: key).map { try $0.typed(Element.self) }
    }

    public func store(in object: ManagedObject, key: String) throws {
        try object.setObjects(self, forKey: key)
    }

    public static var emptyPropertyValue: Self { [] }
}

extension ManagedObject {
    /// The object as an instance of `type`, or ``TypedObjectError/classMismatch(object:expected:found:)``.
    func typed<T: ManagedObject>(_ type: T.Type) throws -> T {
        guard let object = self as? T else {
            throw TypedObjectError.classMismatch(object: objectID.description, expected: "\(T.self)", found: "\(Swift.type(of: self))")
        }
        return object
    }
}
