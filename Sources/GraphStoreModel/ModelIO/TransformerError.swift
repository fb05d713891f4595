/// Why a Transformable attribute's value could not be read or written through its value
/// transformer: which transformer, which attribute of which object, and why.
///
/// ```swift
/// do {
///     let tags = try note.transformedValue(forKey: "tags")
/// } catch let error as TransformerError {
///     print(error)   // Note/p3 tags: NSSecureUnarchiveFromData cannot read the stored bytes: the archive holds an object of class NSOrderedSet, which it does not allow
/// }
/// ```
public struct TransformerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Error, Sendable, Hashable {
        /// The attribute is not Transformable; its type's Xcode name is given (`String`).
        case notTransformable(String)
        /// No transformer of this name is registered (``ValueTransformer/setValueTransformer(_:forName:)``).
        case unregistered
        /// The transformer does not allow reverse transformation, which reading needs.
        case notReversible
        /// The bytes are not a keyed archive GraphStore can read: not a binary property list,
        /// truncated, references out of range, an object that contains itself, more values
        /// than its size can hold. The text says which.
        case unreadableArchive(String)
        /// The archive holds an object of this class, which the transformer does not allow
        /// (`NSOrderedSet`, `UIColor`, a class of the app's own).
        case classNotAllowed(String)
        /// A value of this Swift type has no place in a keyed archive of Foundation's plist
        /// types (`UIColor`, a struct of the app's own).
        case notArchivable(String)
        /// A custom transformer gave no `Data` (nil, or a value of this type) for the store,
        /// or nil for the stored bytes.
        case transformationFailed(String)
    }

    /// Why.
    public var reason: Reason
    /// The transformer's name (`NSSecureUnarchiveFromData`, `ColorTransformer`).
    public var transformerName: String
    /// The object (`Note/p3`), when the value belongs to one.
    public var object: String?
    /// The attribute, when the value belongs to one.
    public var key: String?

    /// An error of a transformer, before it is known whose value it was about.
    public init(_ reason: Reason, transformerName: String, object: String? = nil, key: String? = nil) {
        self.reason = reason
        self.transformerName = transformerName
        self.object = object
        self.key = key
    }

    /// The same error, naming the object and attribute whose value it is about.
    package func about(object: String, key: String) -> TransformerError {
        TransformerError(reason, transformerName: transformerName, object: object, key: key)
    }

    /// `Note/p3 tags: NSSecureUnarchiveFromData cannot read the stored bytes: …`.
    public var description: String {
        let place = [object, key].compactMap { $0 }.joined(separator: " ")
        let prefix = place.isEmpty ? "" : place + ": "
        switch reason {
        case .notTransformable(let type):
            return prefix + "the attribute is of type \(type), not Transformable: read it with value(forKey:) or get(_:as:)"
        case .unregistered:
            return prefix + "no value transformer named \(transformerName) is registered; register it with "
                + "ValueTransformer.setValueTransformer(_:forName:) (the stored bytes stay readable with value(forKey:))"
        case .notReversible:
            return prefix + "\(transformerName) does not allow reverse transformation, which reading a stored value needs"
        case .unreadableArchive(let why):
            return prefix + "\(transformerName) cannot read the stored bytes: \(why)"
        case .classNotAllowed(let name):
            return prefix + "\(transformerName) cannot read the stored bytes: the archive holds an object of class \(name), "
                + "which it does not allow"
        case .notArchivable(let type):
            return prefix + "\(transformerName) cannot archive a value of type \(type): it archives strings, numbers, "
                + "Booleans, dates, data, URLs, UUIDs, null, and arrays, sets and dictionaries of them"
        case .transformationFailed(let what):
            return prefix + "\(transformerName) failed: \(what)"
        }
    }
}
