/// A fetched property used the wrong way, or one whose fetch cannot run.
///
/// A fetched property's value is an array of objects, computed by its fetch request and
/// never stored: it is read with ``ManagedObject/objects(forKey:)`` (or
/// ``ManagedObject/objectIDs(forKey:)``), and never set.
///
/// ```swift
/// do { try category.setObjects([], forKey: "bargainBooks") }
/// catch let error as FetchedPropertyError { print(error) }
/// // BookCategory.bargainBooks is a fetched property: it is computed by its fetch request and cannot be set
/// ```
public enum FetchedPropertyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A write (`setValue`, `setObject`, `setObjects`, `add`, `remove`, …) to a fetched property.
    case readOnly(entity: String, key: String)
    /// A fetched property read as an attribute or a to-one (`value(forKey:)`,
    /// `object(forKey:)`): its value is an array of objects.
    case notASingleValue(entity: String, key: String)
    /// The fetched property's predicate is not a predicate (the model holds text that does not parse).
    case invalidPredicate(entity: String, key: String, predicate: String, reason: String)
    /// Its fetch request failed: a key path its entity does not have, an object that is gone, ….
    case fetchFailed(entity: String, key: String, reason: String)

    /// Core Data's code for an invalid fetch or model (134060), as ``FetchError``'s.
    public var code: Int { 134060 }

    public var description: String {
        switch self {
        case .readOnly(let entity, let key):
            "\(entity).\(key) is a fetched property: it is computed by its fetch request and cannot be set"
        case .notASingleValue(let entity, let key):
            "\(entity).\(key) is a fetched property, whose value is an array of objects: read it with objects(forKey:) or objectIDs(forKey:)"
        case .invalidPredicate(let entity, let key, let predicate, let reason):
            "\(entity).\(key): the fetched property's predicate \(predicate) cannot be read: \(reason)"
        case .fetchFailed(let entity, let key, let reason):
            "\(entity).\(key): the fetched property's fetch failed: \(reason)"
        }
    }
}
