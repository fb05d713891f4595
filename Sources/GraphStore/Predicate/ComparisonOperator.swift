/// The operator of a comparison predicate.
///
/// ```swift
/// if case .comparison(let c) = try ObjectPredicate(format: "name LIKE[c] 'a*'") {
///     c.comparisonOperator   // .like
/// }
/// ```
public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    case lessThan = "<"
    case lessThanOrEqualTo = "<="
    case greaterThan = ">"
    case greaterThanOrEqualTo = ">="
    case equalTo = "=="
    case notEqualTo = "!="
    case matches = "MATCHES"
    case like = "LIKE"
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    /// The left value is an element of the right collection, or a substring of the right string.
    case `in` = "IN"
    /// The left collection holds the right value, or the left string contains the right string.
    case contains = "CONTAINS"
    /// `lower <= left <= upper` for a right side `{lower, upper}`.
    case between = "BETWEEN"
    case utiConformsTo = "UTI-CONFORMS-TO"
    case utiEquals = "UTI-EQUALS"

    /// The operator as `predicateFormat` prints it.
    public var symbol: String { rawValue }
}

/// How a comparison treats a collection on its left: as one value, or element by element.
///
/// `NONE` is not a modifier: it parses as `NOT (ANY …)`, as Apple's parser does.
///
/// ```swift
/// let anyChild = try ObjectPredicate(format: "ANY children.age > 10")   // modifier .any
/// ```
public enum ComparisonModifier: Sendable, Hashable {
    /// Compare the left value as it is.
    case direct
    /// True if some element satisfies the comparison (false for an empty collection).
    case any
    /// True if every element satisfies the comparison (true for an empty collection).
    case all
}
