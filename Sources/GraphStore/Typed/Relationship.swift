/// A relationship as a typed property of a ``ManagedObject`` subclass: `Destination?` for a
/// to-one, `Set<Destination>` for a to-many, `[Destination]` for an ordered to-many.
///
/// ```swift
/// final class BookCategory: ManagedObject, EntityObject {
///     @Attribute("name") var name: String?
///     @Relationship("books") var books: Set<Book>
/// }
/// book.category = fiction             // fiction.books now holds book
/// ```
///
/// Reads fire faults and resolve destinations; writes keep the inverse, record the change
/// and register undo, as ``ManagedObject/setObject(_:forKey:)`` and
/// ``ManagedObject/setObjects(_:forKey:)`` do. A failure is kept with the context (see
/// ``AccessError``); so is a destination that is not an instance of the property's class
/// (``TypedObjectError/classMismatch(object:expected:found:)``).
@propertyWrapper
public struct Relationship<Value: RelationshipProperty>: Sendable {
    /// The relationship's name in the model.
    public let key: String

    /// A relationship property for the model relationship `key`.
    public init(_ key: String) {
        self.key = key
    }

    /// Not available: a typed relationship lives in a ``ManagedObject`` subclass.
    @available(*, unavailable, message: "@Relationship properties belong to ManagedObject subclasses")
    public var wrappedValue: Value {
        get { fatalError("unavailable") }
        set { fatalError("unavailable") }
    }

    /// The property, read and written through its object.
    @inlinable
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Self>
    ) -> Value {
        get { object.relationshipProperty(object[keyPath: storageKeyPath].key) }
        set { object.setRelationshipProperty(newValue, object[keyPath: storageKeyPath].key) }
    }
}
