/// An aggregate a dictionary fetch computes over each group of rows (over all matching rows
/// when the request has no ``FetchRequest/propertiesToGroupBy``), named after Core Data's
/// `NSExpressionDescription` with a `count:`, `sum:`, `average:`, `min:` or `max:` function.
///
/// Its ``name`` is the key of its value in each result dictionary, and what a
/// ``FetchRequest/havingPredicate`` or a ``SortKey`` names it by.
///
/// ```swift
/// var request = FetchRequest(entityName: "Book", sortKeys: [SortKey("category.name")])
/// request.resultType = .dictionary
/// request.propertiesToFetch = ["category.name", .expression(.init(name: "books", function: .count)),
///                              .expression(.init(name: "averagePrice", function: .average, keyPath: "price"))]
/// request.propertiesToGroupBy = ["category.name"]
/// let rows = try context.fetchDictionaries(request)   // [["category.name": "Fiction", "books": 3, "averagePrice": 11.5], …]
/// ```
public struct ExpressionDescription: Sendable, Hashable {
    /// The aggregate functions of Core Data's dictionary fetches.
    public enum Function: String, Sendable, Hashable, CaseIterable {
        /// The number of rows (no key path), or of rows whose key path is not nil.
        case count = "count:"
        /// The sum of a numeric key path's values (nil when every value is nil).
        case sum = "sum:"
        /// The mean of a numeric key path's values, a Double (nil when every value is nil).
        case average = "average:"
        /// The smallest value, in SQLite's order (numbers by value, text by code point).
        case min = "min:"
        /// The largest value, in SQLite's order.
        case max = "max:"
    }

    /// The key of the value in each result dictionary.
    public var name: String
    /// What is computed.
    public var function: Function
    /// The attribute (through to-one relationships) the function reads; nil only for `count`
    /// of rows.
    public var keyPath: String?

    /// An aggregate named `name`: `function` over `keyPath`'s values.
    public init(name: String, function: Function, keyPath: String? = nil) {
        self.name = name
        self.function = function
        self.keyPath = keyPath
    }
}

/// One entry of ``FetchRequest/propertiesToFetch``: a key path (an attribute or a to-one
/// relationship, through to-one relationships), or an aggregate. A string literal is a key
/// path, as in Core Data.
///
/// ```swift
/// request.propertiesToFetch = ["title", "category.name", .expression(.init(name: "n", function: .count))]
/// ```
public enum FetchProperty: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// An attribute or a to-one relationship, by key path.
    case keyPath(String)
    /// An aggregate over each group.
    case expression(ExpressionDescription)

    public init(stringLiteral value: String) {
        self = .keyPath(value)
    }

    /// The key of this property's value in each result dictionary.
    public var name: String {
        switch self {
        case .keyPath(let keyPath): keyPath
        case .expression(let expression): expression.name
        }
    }

    public var description: String { name }
}
