import Foundation

/// A Swift value that can fill a format specifier (`%@`, `%K`, `%d`, …) or a `$VARIABLE`.
///
/// Numbers, strings, booleans, dates, data, UUIDs, URLs, `AttributeValue`, `PredicateValue`,
/// optionals (`nil` becomes a nil constant), arrays, sets and string-keyed dictionaries
/// conform. A `KeyValueSource` type (such as a managed object) conforms by declaring
/// `PredicateArgument` too; it is then passed as an object and compared by identity.
///
/// ```swift
/// let minimum = 18
/// let adults = try ObjectPredicate(format: "age >= %@ AND name IN %@", minimum, ["Ann", "Bob"])
/// ```
public protocol PredicateArgument {
    /// The value the argument stands for.
    var predicateValue: PredicateValue { get }
}

extension KeyValueSource where Self: PredicateArgument {
    /// An object argument is the object itself.
    public var predicateValue: PredicateValue { .object(self) }
}

extension PredicateValue: PredicateArgument {
    public var predicateValue: PredicateValue { self }
}

extension AttributeValue: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(self) }
}

extension KeyValueDictionary: PredicateArgument {}

extension Int: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.integer(Int64(self))) }
}

extension Int64: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.integer(self)) }
}

extension Int32: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.integer(Int64(self))) }
}

extension Int16: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.integer(Int64(self))) }
}

extension Int8: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.integer(Int64(self))) }
}

extension UInt8: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.integer(Int64(self))) }
}

extension UInt16: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.integer(Int64(self))) }
}

extension UInt: PredicateArgument {
    /// Values past `Int64.max` become doubles.
    public var predicateValue: PredicateValue { Int64(exactly: self).map { .integer($0) } ?? .double(Double(self)) }
}

extension UInt64: PredicateArgument {
    /// Values past `Int64.max` become doubles.
    public var predicateValue: PredicateValue { Int64(exactly: self).map { .integer($0) } ?? .double(Double(self)) }
}

extension UInt32: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.integer(Int64(self))) }
}

extension Double: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.double(self)) }
}

extension Float: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.double(Double(self))) }
}

extension Decimal: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.decimal(self)) }
}

extension Bool: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.bool(self)) }
}

extension String: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.string(self)) }
}

extension Substring: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.string(String(self))) }
}

extension Date: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.date(self)) }
}

extension Data: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.data(self)) }
}

extension UUID: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.uuid(self)) }
}

extension URL: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.uri(self)) }
}

extension Optional: PredicateArgument where Wrapped: PredicateArgument {
    public var predicateValue: PredicateValue { self?.predicateValue ?? .null }
}

extension Array: PredicateArgument where Element: PredicateArgument {
    public var predicateValue: PredicateValue { .array(map(\.predicateValue)) }
}

extension Set: PredicateArgument where Element: PredicateArgument {
    public var predicateValue: PredicateValue { .set(map(\.predicateValue)) }
}

extension Dictionary: PredicateArgument where Key == String, Value: PredicateArgument {
    public var predicateValue: PredicateValue { .object(KeyValueDictionary(mapValues(\.predicateValue))) }
}
