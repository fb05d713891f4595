/// Typed primitive writes: an attribute set without recording a change, as Core Data's
/// `setPrimitiveValue(_:forKey:)` does. Custom accessors are built on them; a value set this
/// way is saved only with the object's next recorded change (or when inserted). Reading
/// never records a change, so a custom getter reads with ``ManagedObject/get(_:as:)``.
///
/// ```swift
/// final class Book: ManagedObject {
///     /// Kept trimmed; trimming is not a change of its own.
///     func setTitle(_ title: String) throws { try setPrimitive("title", title.trimmingCharacters(in: .whitespaces)) }
///     var title: String? { get throws { try get("title") } }
/// }
/// ```
extension ManagedObject {
    /// Writes an attribute from a Swift value (nil clears it) without recording a change.
    public func setPrimitive<T: AttributeConvertible>(_ key: String, _ value: T?) throws {
        try setPrimitiveValue(value?.attributeValue, forKey: key)
    }
}
