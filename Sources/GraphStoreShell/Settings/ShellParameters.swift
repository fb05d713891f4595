import Foundation
import GraphStore

/// Values bound with `.parameter set NAME VALUE`, which predicates use as `$NAME`.
///
/// A value is read the way a predicate literal is: `10` is a number, `'Dune'` or `"Dune"`
/// a string, `TRUE`/`FALSE` booleans, `nil` the null value, `{1, 2}` an array, and an
/// ISO 8601 date or date-time (`2024-05-01`, `2024-05-01T10:00:00Z`) a date. Anything else
/// (a bare word such as `Dune`) is taken as a string, so quoting is rarely needed.
///
/// ```swift
/// var parameters = ShellParameters()
/// try parameters.set("minPrice", from: "12")
/// predicate.withSubstitutionVariables(parameters.bindings)   // $minPrice → 12
/// ```
public struct ShellParameters: Sendable {
    /// One binding: the value and the text it was given as.
    public struct Binding: Sendable {
        /// The name without its `$`.
        public var name: String
        /// The value predicates see.
        public var value: PredicateValue
        /// The text given to `.parameter set`.
        public var text: String
    }

    /// The bindings, in the order they were first set.
    public private(set) var all: [Binding] = []

    /// Creates an empty set of parameters.
    public init() {}

    /// The bindings as predicate substitution variables.
    public var bindings: [String: PredicateValue] {
        Dictionary(all.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// The value of a parameter.
    public subscript(name: String) -> PredicateValue? {
        all.first { $0.name == Self.bareName(name) }?.value
    }

    /// Binds `name` (with or without `$`, `:` or `@`, as sqlite3 allows) to the value `text` denotes.
    public mutating func set(_ name: String, from text: String) throws(ShellError) {
        let name = Self.bareName(name)
        guard let first = name.unicodeScalars.first, first == "_" || CharacterSet.letters.contains(first),
            name.unicodeScalars.allSatisfy({ $0 == "_" || CharacterSet.alphanumerics.contains($0) })
        else {
            throw ShellError("parameter names are letters, digits and _ (starting with a letter), not \(name)")
        }
        let binding = Binding(name: name, value: Self.value(of: text), text: text)
        if let i = all.firstIndex(where: { $0.name == name }) {
            all[i] = binding
        } else {
            all.append(binding)
        }
    }

    /// Removes a binding; false when there was none.
    @discardableResult
    public mutating func unset(_ name: String) -> Bool {
        let name = Self.bareName(name)
        guard let i = all.firstIndex(where: { $0.name == name }) else { return false }
        all.remove(at: i)
        return true
    }

    /// Removes every binding.
    public mutating func clear() { all = [] }

    static func bareName(_ name: String) -> String {
        guard let first = name.first, "$:@".contains(first) else { return name }
        return String(name.dropFirst())
    }

    /// The value a parameter text denotes (see the type's documentation).
    static func value(of text: String) -> PredicateValue {
        if let date = isoDate(text) { return .date(date) }
        guard let expression = try? ObjectExpression(format: text) else { return .string(text) }
        switch expression {
        case .keyPath, .evaluatedObject, .variable, .member, .anyKey:
            // A bare word would read as a key path, which means nothing outside a fetch.
            return .string(text)
        default:
            return (try? expression.value()) ?? .string(text)
        }
    }

    /// A date with a zone (`2024-05-01T10:00:00Z`, `…+02:00`) or a bare day (midnight UTC, as
    /// Core Data's date literals are), read exactly; a field out of range (`2024-02-30`) is no
    /// date, so the text stays a string and a comparison with a Date attribute says why.
    private static func isoDate(_ text: String) -> Date? {
        let hasZone = text.hasSuffix("Z") || text.range(of: #"T.*[+-][0-9]{2}:?[0-9]{2}$"#, options: .regularExpression) != nil
        guard text.count == 10 || (text.contains("T") && hasZone) else { return nil }
        return try? ISO8601DateText.date(from: text)
    }
}
