/// Why a fetch request cannot run: a key path the entity does not have, a sort key or a
/// property that cannot be used that way, a request that makes no sense.
///
/// Errors raised while evaluating a predicate in memory (a bad regular expression,
/// ordering a string against a number) come through as `PredicateEvaluationError`.
///
/// ```swift
/// do { _ = try context.fetch(FetchRequest(entityName: "Book", format: "titel == 'Dune'")) }
/// catch let error as FetchError { print(error) }   // entity Book has no key titel (in titel)
/// ```
public enum FetchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `key`, part of `keyPath`, is neither an attribute nor a relationship of `entity`.
    case unknownKeyPath(entity: String, keyPath: String, key: String)
    /// A sort key that is not an attribute reached through to-one relationships.
    case invalidSortKey(entity: String, keyPath: String, reason: String)
    /// A property to fetch that is not an attribute or to-one relationship reached through to-ones.
    case invalidProperty(entity: String, keyPath: String, reason: String)
    /// The request itself is inconsistent (a negative limit, …).
    case invalidRequest(String)

    /// Core Data's code for an invalid fetch (`NSPersistentStoreInvalid…`): 134060 for
    /// key paths, as for other model errors.
    public var code: Int { 134060 }

    public var description: String {
        switch self {
        case .unknownKeyPath(let entity, let keyPath, let key):
            keyPath == key ? "entity \(entity) has no key \(key)" : "entity \(entity) has no key \(key) (in \(keyPath))"
        case .invalidSortKey(let entity, let keyPath, let reason):
            "cannot sort \(entity) by \(keyPath): \(reason)"
        case .invalidProperty(let entity, let keyPath, let reason):
            "cannot fetch \(keyPath) of \(entity): \(reason)"
        case .invalidRequest(let reason):
            "invalid fetch request: \(reason)"
        }
    }
}
