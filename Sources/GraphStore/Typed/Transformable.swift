/// A Transformable attribute as a typed property of a ``ManagedObject`` subclass: the value
/// its transformer reads from the stored bytes, as Core Data's `@NSManaged var tags: [String]?`
/// of a Transformable attribute gives it.
///
/// ```swift
/// final class Note: ManagedObject, EntityObject {
///     @Transformable("tags") var tags: [String]?            // NSSecureUnarchiveFromData
///     @Transformable("color") var color: Color?             // a registered ColorTransformer
/// }
/// note.tags = ["fiction", "classic"]                        // archived, recorded, saved
/// ```
///
/// Reads and writes go through ``ManagedObject/transformedValue(forKey:as:)`` and
/// ``ManagedObject/setTransformedValue(_:forKey:)``; as with ``Attribute``, a failure (a
/// transformer not registered, a damaged archive, a value of another type) reads nil and is
/// kept with the context (``AccessError``). The property's type is optional: a Transformable
/// value may be absent.
///
/// Why not `@Attribute`: its types convert from an ``AttributeValue`` alone, and a
/// Transformable value needs the attribute's transformer too.
@propertyWrapper
public struct Transformable<Value: ExpressibleByNilLiteral>: Sendable {
    /// The attribute's name in the model.
    public let key: String

    /// A transformable property for the model attribute `key`.
    public init(_ key: String) {
        self.key = key
    }

    /// Not available: a typed attribute lives in a ``ManagedObject`` subclass, whose
    /// instance it reads through (see the enclosing-instance subscript).
    @available(*, unavailable, message: "@Transformable properties belong to ManagedObject subclasses")
    public var wrappedValue: Value {
        get { fatalError("unavailable") }
        set { fatalError("unavailable") }
    }

    /// The property, read and written through its object.
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Self>
    ) -> Value {
        get { object.transformableProperty(object[keyPath: storageKeyPath].key) }
        set { object.setTransformableProperty(newValue, object[keyPath: storageKeyPath].key) }
    }
}

extension ManagedObject {
    /// A Transformable attribute as a typed property reads it (see ``Transformable``): what a
    /// computed property calls where a property wrapper cannot be.
    ///
    /// ```swift
    /// extension Note {
    ///     var tags: [String]? {
    ///         get { transformableProperty("tags") }
    ///         set { setTransformableProperty(newValue, "tags") }
    ///     }
    /// }
    /// ```
    public func transformableProperty<Value: ExpressibleByNilLiteral>(_ key: String, as _: Value.Type = Value.self) -> Value {
        do {
            // `Value` is optional: read as the optional's own type, an absent value is nil.
            guard let value = try transformedValue(forKey: key) else { return nil }
            if let typed = value as? Value { return typed }
            throw StoreError.typeMismatch(entity: entity.name, key: key, expected: .transformable, found: "\(Value.self)")
        } catch {
            recordAccessFailure(error, key: key)
            return nil
        }
    }

    /// Writes a Transformable attribute as a typed property does.
    public func setTransformableProperty<Value: ExpressibleByNilLiteral>(_ value: Value, _ key: String) {
        do {
            try setTransformedValue(value, forKey: key)
        } catch {
            recordAccessFailure(error, key: key)
        }
    }
}
