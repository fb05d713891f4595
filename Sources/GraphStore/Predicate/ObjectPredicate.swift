import Foundation

/// A parsed predicate: the format-string language of `NSPredicate(format:)`.
///
/// Parse with `init(format:_:)`, print Apple's canonical text with `predicateFormat`,
/// evaluate in memory with `evaluate(with:)`. The tree is public so that a SQL compiler
/// can walk it.
///
/// ```swift
/// let adults = try ObjectPredicate(format: "age >= %@ AND name BEGINSWITH[c] %@", 18, "a")
/// adults.predicateFormat                                   // age >= 18 AND name BEGINSWITH[c] "a"
/// try adults.evaluate(with: ["name": "Alice", "age": 30])  // true
/// ```
public indirect enum ObjectPredicate: Sendable {
    /// `TRUEPREDICATE` (`true`) or `FALSEPREDICATE` (`false`).
    case constant(Bool)
    /// `left op right`, possibly with `ANY`/`ALL` and `[cd]` options.
    case comparison(ComparisonPredicate)
    /// All subpredicates hold (true when empty). Parsed chains are flat.
    case and([ObjectPredicate])
    /// Some subpredicate holds (false when empty). Parsed chains are flat.
    case or([ObjectPredicate])
    /// The subpredicate does not hold.
    case not(ObjectPredicate)
}

/// A comparison between two expressions: `ANY children.age > 10`, `name LIKE[c] "a*"`.
///
/// ```swift
/// let c = ComparisonPredicate(.keyPath(["age"]), .greaterThan, .constant(29))
/// ObjectPredicate.comparison(c).predicateFormat   // age > 29
/// ```
public struct ComparisonPredicate: Sendable {
    /// The value tested (iterated element by element under `ANY`/`ALL`).
    public var left: ObjectExpression
    /// `==`, `<`, `LIKE`, `IN`, `BETWEEN`, …
    public var comparisonOperator: ComparisonOperator
    /// The value compared against (for BETWEEN, the `{lower, upper}` pair).
    public var right: ObjectExpression
    /// `.direct`, `.any` or `.all`.
    public var modifier: ComparisonModifier
    /// `[c]`, `[d]`, `[n]`, `[l]`.
    public var options: ComparisonOptions

    /// A comparison; `modifier` and `options` default to none.
    public init(
        _ left: ObjectExpression, _ comparisonOperator: ComparisonOperator, _ right: ObjectExpression,
        modifier: ComparisonModifier = .direct, options: ComparisonOptions = []
    ) {
        self.left = left
        self.comparisonOperator = comparisonOperator
        self.right = right
        self.modifier = modifier
        self.options = options
    }
}

extension ObjectPredicate {
    /// Parses `format`, substituting `%@ %K %d %f %s …` from `arguments` in order.
    ///
    /// Throws `PredicateParseError` (with the column) for malformed text, a missing
    /// argument or an argument of the wrong kind.
    public init(format: String, _ arguments: any PredicateArgument...) throws {
        try self.init(format: format, argumentArray: arguments)
    }

    /// Parses `format` with the format arguments given as an array.
    public init(format: String, argumentArray: [any PredicateArgument]) throws {
        var parser = try PredicateParser(format: format, arguments: argumentArray.map(\.predicateValue))
        self = try parser.parseWholePredicate()
    }

    /// The canonical text, as Apple's `predicateFormat` prints it.
    public var predicateFormat: String { PredicateFormatter.predicate(self) }

    /// Evaluates the predicate against an object; `$VARIABLE`s come from `variables`.
    ///
    /// Throws `PredicateEvaluationError` where Foundation raises (unbound variable,
    /// ordering a string against a number, `ANY` over a non-collection, bad regex, …).
    public func evaluate(with object: any KeyValueSource, substitutionVariables variables: [String: PredicateValue] = [:])
        throws -> Bool
    {
        try evaluate(withValue: .object(object), substitutionVariables: variables)
    }

    /// Evaluates the predicate against any value (`SELF` is `value`), e.g. a string in an array.
    public func evaluate(withValue value: PredicateValue, substitutionVariables variables: [String: PredicateValue] = [:])
        throws -> Bool
    {
        try PredicateEvaluator(variables: variables).evaluate(self, on: value)
    }

    /// Evaluates against a dictionary literal, for tests and quick checks.
    public func evaluate(with dictionary: [String: PredicateValue], substitutionVariables variables: [String: PredicateValue] = [:])
        throws -> Bool
    {
        try evaluate(withValue: .dictionary(dictionary), substitutionVariables: variables)
    }

    /// The predicate with each `$VARIABLE` that `variables` binds replaced by a constant.
    /// Unbound variables, and a SUBQUERY's own variable inside it, stay as they are.
    public func withSubstitutionVariables(_ variables: [String: PredicateValue]) -> ObjectPredicate {
        VariableSubstitution(bindings: variables).predicate(self)
    }
}

extension ObjectPredicate: CustomStringConvertible {
    /// The `predicateFormat`.
    public var description: String { predicateFormat }
}

extension ObjectExpression {
    /// Parses an expression on its own, as `NSExpression(format:)` does (`"age + 1"`).
    public init(format: String, _ arguments: any PredicateArgument...) throws {
        var parser = try PredicateParser(format: format, arguments: arguments.map(\.predicateValue))
        self = try parser.parseWholeExpression()
    }

    /// The canonical text of the expression.
    public var expressionFormat: String { PredicateFormatter.expression(self) }

    /// The value of the expression for `object` (`SELF`), with `$VARIABLE` bindings.
    public func value(for object: PredicateValue = .null, substitutionVariables variables: [String: PredicateValue] = [:])
        throws -> PredicateValue
    {
        try PredicateEvaluator(variables: variables).value(of: self, on: object)
    }
}

extension ObjectExpression: CustomStringConvertible {
    /// The canonical text of the expression.
    public var description: String { expressionFormat }
}
