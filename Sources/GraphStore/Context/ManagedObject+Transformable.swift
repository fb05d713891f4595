import Foundation

/// Transformable attributes read and written through their value transformer, as Core Data's
/// `value(forKey:)` and `setValue(_:forKey:)` do: the object holds the stored bytes (what
/// ``value(forKey:)`` gives, as `.data`), and these turn them into the app's value and back.
extension ManagedObject {
    /// A Transformable attribute's value as its transformer reads the stored bytes: for
    /// `NSSecureUnarchiveFromData` (and no transformer named), Foundation values (`[Any]`,
    /// `[AnyHashable: Any]`, `String`, `NSNumber`, `URL`…, see ``PropertyListValue``); for a
    /// registered transformer, what its `reverseTransformedValue` gives. Nil when there is
    /// no value. Reading changes nothing: the bytes stay as stored.
    ///
    /// ```swift
    /// let tags = try note.transformedValue(forKey: "tags") as? [String]   // ["fiction", "classic"]
    /// ```
    ///
    /// Throws ``TransformerError`` naming the object, the attribute and the transformer when
    /// the transformer is not registered (``TransformerError/Reason/unregistered``), or the
    /// bytes are not what it reads (a damaged archive, a class it does not allow).
    public func transformedValue(forKey key: String) throws -> Any? {
        let (transformer, bytes) = try transformableBytes(forKey: key)
        guard let bytes else { return nil }
        do {
            return try transformer.value(from: bytes)
        } catch {
            throw error.about(object: objectID.description, key: key)
        }
    }

    /// A Transformable attribute's value as a Swift type: `[String]`, `[String: Any]`, `URL`,
    /// the type of a registered transformer, or ``PropertyListValue`` (for
    /// `NSSecureUnarchiveFromData`, a `Sendable`, `Hashable` value). A value of another type
    /// is ``StoreError/typeMismatch(entity:key:expected:found:)``.
    ///
    /// ```swift
    /// let tags = try note.transformedValue(forKey: "tags", as: [String].self)
    /// ```
    public func transformedValue<T>(forKey key: String, as type: T.Type = T.self) throws -> T? {
        if T.self == PropertyListValue.self {
            let (transformer, bytes) = try transformableBytes(forKey: key)
            if let unarchiver = transformer.unarchiver {
                guard let bytes else { return nil }
                do {
                    return try unarchiver.decode(bytes) as? T
                } catch {
                    throw error.about(object: objectID.description, key: key)
                }
            }
        }
        guard let value = try transformedValue(forKey: key) else { return nil }
        guard let typed = value as? T else {
            throw StoreError.typeMismatch(entity: entity.name, key: key, expected: .transformable, found: "\(T.self)")
        }
        return typed
    }

    /// Sets a Transformable attribute to the bytes its transformer makes of `value` (nil
    /// clears it), recording the change as ``setValue(_:forKey:)`` does. A value equal to the
    /// stored one changes nothing, so the next save writes only what changed.
    ///
    /// ```swift
    /// try note.setTransformedValue(["fiction", "classic"], forKey: "tags")
    /// ```
    public func setTransformedValue(_ value: Any?, forKey key: String) throws {
        let (transformer, stored) = try transformableBytes(forKey: key)
        let bytes: Data?
        do {
            bytes = try transformer.bytes(for: value)
            // An archive equal to the stored one in what it holds is not a change, even when
            // its bytes differ (another archiver's order of a dictionary's keys).
            if let unarchiver = transformer.unarchiver, let stored, let bytes, let new = try? unarchiver.decode(bytes),
                (try? unarchiver.decode(stored)) == new
            {
                return
            }
        } catch {
            throw error.about(object: objectID.description, key: key)
        }
        try setValue(bytes.map { .data($0) }, forKey: key)
    }

    /// The attribute's transformer and its stored bytes.
    private func transformableBytes(forKey key: String) throws -> (AttributeTransformer, Data?) {
        let index = try attributeIndex(key)
        let transformer: AttributeTransformer
        do {
            transformer = try AttributeTransformer(for: mapping.attributes[index].attribute)
        } catch {
            throw error.about(object: objectID.description, key: key)
        }
        return (transformer, try value(forKey: key)?.dataValue)
    }
}
