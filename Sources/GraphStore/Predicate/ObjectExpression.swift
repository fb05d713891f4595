/// One side of a comparison: the expression language of `NSExpression(format:)`.
///
/// Key paths are arrays of components (`address.city` is `["address", "city"]`;
/// collection operators stay components: `["children", "@count"]`), so a SQL compiler can
/// walk them. `member(.evaluatedObject, path)` (written `SELF.path`) means the same as
/// `keyPath(path)`.
///
/// ```swift
/// let age = ObjectExpression.keyPath(["age"])
/// let next = ObjectExpression.arithmetic(.add, age, .constant(1))   // age + 1
/// ```
public indirect enum ObjectExpression: Sendable {
    /// A literal or substituted value (`30`, `"Alice"`, `nil`, a `%@` argument).
    case constant(PredicateValue)
    /// `SELF`: the object being evaluated.
    case evaluatedObject
    /// A key path from the evaluated object: `address.city`.
    case keyPath([String])
    /// `$NAME`, bound when evaluating or by substitution.
    case variable(String)
    /// A key path applied to another expression: `$c.age`, `SUBQUERY(…).@count`.
    case member(ObjectExpression, [String])
    /// `base[FIRST]`, `base[LAST]`, `base[SIZE]`, `base[2]`, `dict['key']`.
    case index(ObjectExpression, IndexSelector)
    /// `{a, b, c}`: an array of the element values.
    case aggregate([ObjectExpression])
    /// `left op right` for `+ - * / ** & | ^ << >>`.
    case arithmetic(ArithmeticOperator, ObjectExpression, ObjectExpression)
    /// `-x` or `~x`.
    case unary(UnaryOperator, ObjectExpression)
    /// A built-in function: `sum({1, 2})`, `now()`.
    case function(BuiltinFunction, [ObjectExpression])
    /// `FUNCTION(receiver, 'selector:', args…)`: a method sent to the receiver.
    case selector(receiver: ObjectExpression, selector: String, arguments: [ObjectExpression])
    /// `CAST(value, 'NSNumber')`; a constant number cast to `NSDate` is folded into a date.
    case cast(ObjectExpression, type: String)
    /// `SUBQUERY(collection, $var, predicate)`: the elements for which predicate holds.
    case subquery(collection: ObjectExpression, variable: String, predicate: ObjectPredicate)
    /// `ANYKEY` (a Spotlight construct; parsed, printed, not evaluable).
    case anyKey
}

/// What goes between the brackets of an index expression.
///
/// ```swift
/// let last = ObjectExpression.index(.keyPath(["tags"]), .last)   // tags[LAST]
/// ```
public enum IndexSelector: Sendable {
    /// `[FIRST]`: the first element, nil for an empty collection.
    case first
    /// `[LAST]`: the last element, nil for an empty collection.
    case last
    /// `[SIZE]`: the number of elements.
    case size
    /// `[n]` (zero-based) on an array, `['key']` on a dictionary.
    case expression(ObjectExpression)
}

/// A binary arithmetic or bitwise operator.
///
/// ```swift
/// ArithmeticOperator.power.symbol   // "**"
/// ```
public enum ArithmeticOperator: String, Sendable, Hashable, CaseIterable {
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"
    case power = "**"
    case bitwiseAnd = "&"
    case bitwiseOr = "|"
    case bitwiseXor = "^"
    case leftShift = "<<"
    case rightShift = ">>"

    /// The operator as written and printed.
    public var symbol: String { rawValue }
}

/// A prefix operator on an expression.
///
/// ```swift
/// ObjectExpression.unary(.negate, .keyPath(["age"]))   // -age
/// ```
public enum UnaryOperator: String, Sendable, Hashable, CaseIterable {
    /// `-x`.
    case negate = "-"
    /// `~x` (ones' complement of an integer).
    case onesComplement = "~"
}
