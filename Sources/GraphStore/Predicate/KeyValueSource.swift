/// Something a key path can be evaluated against: a dictionary, a managed object, or any
/// object that answers keys.
///
/// `value(forKey:)` answers one key (never a dotted path); the evaluator walks key paths,
/// maps keys over to-many collections and applies `@count`/`@sum`/… itself. Answer
/// `.null` for a key that has no value or that the object does not know. Objects are
/// compared by `objectIdentity`: classes get `ObjectIdentifier(self)` for free.
///
/// ```swift
/// struct City: KeyValueSource {
///     var name: String
///     func value(forKey key: String) -> PredicateValue { key == "name" ? .string(name) : .null }
/// }
/// ```
public protocol KeyValueSource: Sendable {
    /// The value stored under `key`, or `.null`.
    func value(forKey key: String) -> PredicateValue

    /// What makes two references denote the same object (`===` for classes), or `nil`
    /// when the type has no identity; then `==` is false unless the types compare contents.
    var objectIdentity: AnyHashable? { get }
}

extension KeyValueSource {
    /// Value types have no identity by default.
    public var objectIdentity: AnyHashable? { nil }
}

extension KeyValueSource where Self: AnyObject {
    /// Classes are identified by reference, as `NSObject.isEqual:` does by default.
    public var objectIdentity: AnyHashable? { AnyHashable(ObjectIdentifier(self)) }
}

/// A dictionary seen as an object: each key answers its entry, a missing key `.null`.
///
/// Like `NSDictionary`, it equals another dictionary with equal entries, `IN` and
/// `CONTAINS` search its values, and `dict['key']` reads an entry.
///
/// ```swift
/// let address = KeyValueDictionary(["city": "Paris", "zip": "75001"])
/// let predicate = try ObjectPredicate(format: "city == 'Paris'")
/// try predicate.evaluate(with: address)   // true
/// ```
public struct KeyValueDictionary: KeyValueSource {
    /// The entries; `.null` entries behave like `NSNull` (equal to `nil` in predicates).
    public var entries: [String: PredicateValue]

    /// A dictionary with these entries.
    public init(_ entries: [String: PredicateValue]) { self.entries = entries }

    /// The entry for `key`, or `.null` when there is none.
    public func value(forKey key: String) -> PredicateValue { entries[key] ?? .null }
}
