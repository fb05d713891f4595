/// An attribute as a typed property of a ``ManagedObject`` subclass: reads and writes
/// without `try`, as Core Data's `@NSManaged` properties do.
///
/// ```swift
/// final class Book: ManagedObject, EntityObject {
///     @Attribute("title") var title: String?
///     @Attribute("price") var price: Float          // a scalar: 0 when the store holds NULL
///     @Relationship("category") var category: BookCategory?
/// }
/// book.title = "Dune"                                // recorded, undoable, saved
/// ```
///
/// A read fires the object's fault; a write records the change, registers undo and marks the
/// object updated, exactly as ``ManagedObject/get(_:as:)`` and ``ManagedObject/set(_:_:)``
/// do. A read or write that fails keeps its error with the context (see ``AccessError``).
/// `graphstore codegen` writes the same properties as computed ones (see ``ModelCodeGenerator``):
/// a wrapper reads its key from the object's storage, an exclusivity-checked access, on every use.
///
/// Why a property wrapper and not a macro: a macro needs swift-syntax, which every build of
/// a package using GraphStore would compile (one to two and a half minutes on a small
/// machine); a wrapper on the enclosing instance costs nothing to build and, the model's
/// property name being given, nothing at run time beyond the keyed access it calls.
@propertyWrapper
public struct Attribute<Value: AttributeProperty>: Sendable {
    /// The attribute's name in the model.
    public let key: String

    /// An attribute property for the model attribute `key`.
    public init(_ key: String) {
        self.key = key
    }

    /// Not available: a typed attribute lives in a ``ManagedObject`` subclass, whose
    /// instance it reads through (see the enclosing-instance subscript).
    @available(*, unavailable, message: "@Attribute properties belong to ManagedObject subclasses")
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
        get { object.attributeProperty(object[keyPath: storageKeyPath].key) }
        set { object.setAttributeProperty(newValue, object[keyPath: storageKeyPath].key) }
    }
}
