/// Typed primitive accessors: read and write an attribute without recording a change, as
/// Core Data's `primitiveValue(forKey:)` does. Custom accessors are built on them; a value
/// set this way is saved only with the object's next recorded change (or when inserted).
///
/// ```swift
/// final class Book: ManagedObject {
///     /// Kept trimmed; trimming is not a change of its own.
///     func setTitle(_ title: String) throws { try setPrimitive("title", title.trimmingCharacters(in: .whitespaces)) }
///     var title: String? { get throws { try primitive("title") } }
/// }
/// ```
extension ManagedObject {
    /// An attribute as a Swift type, without firing change tracking.
    public func primitive<T: AttributeConvertible>(_ key: String, as type: T.Type = T.self) throws -> T? {
        guard let value = try primitiveValue(forKey: key) else { return nil }
        guard let converted = T(attributeValue: value) else {
            throw StoreError.typeMismatch(entity: entity.name, key: key, expected: mapping.attributes[try attributeIndex(key)].attribute.type, found: "\(T.self)")
        }
        return converted
    }

    /// Writes an attribute from a Swift value (nil clears it) without recording a change.
    public func setPrimitive<T: AttributeConvertible>(_ key: String, _ value: T?) throws {
        try setPrimitiveValue(value?.attributeValue, forKey: key)
    }
}
