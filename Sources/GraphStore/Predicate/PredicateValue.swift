import Foundation

/// A value a predicate works with: what a key path yields, what a constant holds, what a
/// format argument or a `$VARIABLE` binding supplies.
///
/// Missing values and `NSNull` are both `.null`, as Core Data and KVC treat them alike.
/// To-many relationships are `.array` (ordered) or `.set` (unordered, as `NSSet`);
/// to-one relationships and dictionaries are `.object`.
///
/// ```swift
/// let person: PredicateValue = ["name": "Alice", "age": 30, "tags": ["swift", "objc"]]
/// let born: PredicateValue = .date(Date(timeIntervalSince1970: 0))
/// ```
public enum PredicateValue: Sendable {
    /// No value: a missing key, `nil` or `NSNull`.
    case null
    /// A scalar: number, string, boolean, date, data, UUID or URI.
    case attribute(AttributeValue)
    /// An ordered collection (an `NSArray` or an ordered to-many relationship).
    case array([PredicateValue])
    /// An unordered collection (an `NSSet` or a to-many relationship).
    case set([PredicateValue])
    /// An object that answers keys: a dictionary or a managed object.
    case object(any KeyValueSource)
}

extension PredicateValue {
    /// A date value.
    public static func date(_ date: Date) -> PredicateValue { .attribute(.date(date)) }
    /// A string value.
    public static func string(_ string: String) -> PredicateValue { .attribute(.string(string)) }
    /// An integer value.
    public static func integer(_ value: Int64) -> PredicateValue { .attribute(.integer(value)) }
    /// A floating-point value.
    public static func double(_ value: Double) -> PredicateValue { .attribute(.double(value)) }
    /// A boolean value (an `NSNumber` bool: equal to 1 or 0).
    public static func bool(_ value: Bool) -> PredicateValue { .attribute(.bool(value)) }
    /// A dictionary, answered key by key like an object.
    public static func dictionary(_ entries: [String: PredicateValue]) -> PredicateValue {
        .object(KeyValueDictionary(entries))
    }

    /// An optional attribute as a value: `nil` becomes `.null`. This is how a managed
    /// object answers an attribute key.
    public init(_ attribute: AttributeValue?) {
        self = attribute.map(PredicateValue.attribute) ?? .null
    }

    /// Whether this is `.null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The scalar, if this is `.attribute`.
    public var attributeValue: AttributeValue? {
        if case .attribute(let value) = self { return value }
        return nil
    }

    /// The string, if this holds one.
    public var stringValue: String? { attributeValue?.stringValue }

    /// The elements, if this is an array or a set.
    public var collectionElements: [PredicateValue]? {
        switch self {
        case .array(let elements), .set(let elements): elements
        default: nil
        }
    }

    /// Whether this is a number (integer, double, decimal or boolean).
    var isNumber: Bool { attributeValue?.isNumber ?? false }
}

extension PredicateValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(integerLiteral value: Int64) { self = .attribute(.integer(value)) }
    public init(floatLiteral value: Double) { self = .attribute(.double(value)) }
    public init(stringLiteral value: String) { self = .attribute(.string(value)) }
    public init(booleanLiteral value: Bool) { self = .attribute(.bool(value)) }
    public init(arrayLiteral elements: PredicateValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, PredicateValue)...) {
        self = .object(KeyValueDictionary(Dictionary(elements, uniquingKeysWith: { _, last in last })))
    }
}

extension PredicateValue: CustomStringConvertible {
    /// The value as `predicateFormat` prints a constant (`"Alice"`, `30`, `{1, 2}`, `nil`).
    public var description: String { PredicateFormatter.constant(self) }
}
