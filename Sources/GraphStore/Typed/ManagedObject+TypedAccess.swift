/// The reads and writes under typed properties (``Attribute``, ``Relationship``): the same
/// ``ManagedObject/value(forKey:)``, ``ManagedObject/setValue(_:forKey:)``,
/// ``ManagedObject/object(forKey:)``… the keyed API uses (faults fire, changes are recorded,
/// inverses kept, undo registered), with a failure kept by the context instead of thrown
/// (see ``AccessError``).
extension ManagedObject {
    /// An attribute as a typed property reads it: what a computed property in an extension
    /// calls, where a property wrapper cannot be (generated `Category/Extension` code).
    ///
    /// ```swift
    /// extension Book {
    ///     public var title: String? {
    ///         get { attributeProperty("title") }
    ///         set { setAttributeProperty(newValue, "title") }
    ///     }
    /// }
    /// ```
    public func attributeProperty<Value: AttributeProperty>(_ key: String, as _: Value.Type = Value.self) -> Value {
        do {
            let stored = try value(forKey: key)
            if let value = Value.propertyValue(from: stored) { return value }
            throw StoreError.typeMismatch(entity: entity.name, key: key, expected: mapping.attributeTypes[try attributeIndex(key)], found: "\(Value.self)")
        } catch {
            recordAccessFailure(error, key: key)
            return Value.emptyPropertyValue
        }
    }

    /// Writes an attribute as a typed property does.
    public func setAttributeProperty<Value: AttributeProperty>(_ value: Value, _ key: String) {
        do {
            try setValue(value.storedValue, forKey: key)
        } catch {
            recordAccessFailure(error, key: key)
        }
    }

    /// A relationship as a typed property reads it (see ``attributeProperty(_:as:)``).
    public func relationshipProperty<Value: RelationshipProperty>(_ key: String, as _: Value.Type = Value.self) -> Value {
        do {
            return try Value.propertyValue(of: self, key: key)
        } catch {
            recordAccessFailure(error, key: key)
            return Value.emptyPropertyValue
        }
    }

    /// Writes a relationship as a typed property does.
    public func setRelationshipProperty<Value: RelationshipProperty>(_ value: Value, _ key: String) {
        do {
            try value.store(in: self, key: key)
        } catch {
            recordAccessFailure(error, key: key)
        }
    }

    /// A fetched property as a typed property reads it: its results (fetched when first
    /// read, then kept until the object is refreshed), as instances of their class. What
    /// `graphstore codegen` generates for a fetched property, read-only as Core Data's are.
    ///
    /// ```swift
    /// extension BookCategory {
    ///     public var bargainBooks: [Book] { fetchedProperty("bargainBooks") }
    /// }
    /// ```
    public func fetchedProperty<Element: ManagedObject>(_ key: String, as _: Element.Type = Element.self) -> [Element] {
        do {
            return try objects(forKey: key).map { try $0.typed(Element.self) }
        } catch {
            recordAccessFailure(error, key: key)
            return []
        }
    }

    /// Adds one object to a to-many relationship, as generated `addTo…` methods do: no
    /// `try`, a failure kept by the context (see ``AccessError``).
    ///
    /// ```swift
    /// fiction.addToBooks(book)     // generated: addingMember(book, toKey: "books")
    /// ```
    public func addingMember(_ member: ManagedObject, toKey key: String) {
        do {
            try add(member, toKey: key)
        } catch {
            recordAccessFailure(error, key: key)
        }
    }

    /// Removes one object from a to-many relationship, as generated `removeFrom…` methods
    /// do (see ``addingMember(_:toKey:)``).
    public func removingMember(_ member: ManagedObject, fromKey key: String) {
        do {
            try remove(member, fromKey: key)
        } catch {
            recordAccessFailure(error, key: key)
        }
    }

    /// Inserts one object into an ordered to-many relationship at a position, as generated
    /// `insertInto…` methods do (see ``addingMember(_:toKey:)``).
    public func insertingMember(_ member: ManagedObject, at position: Int, forKey key: String) {
        do {
            try insert(member, at: position, forKey: key)
        } catch {
            recordAccessFailure(error, key: key)
        }
    }
}
