import Foundation

/// Turns a Foundation `Predicate` over an ``EntityObject`` class into an ``ObjectPredicate``:
/// the same tree the format-string language parses to, so the fetch runs the same SQL.
///
/// The translation keeps Swift's answer for every object, which is what
/// `Predicate.evaluate` gives (the property tests check it): where Swift reads a value the
/// predicate language reads as nil (a non-optional `Int64` property of an object that holds no
/// value reads 0), the comparison gets the condition it needs (`age == nil OR age < 20` for
/// `$0.age < 20`), and only then.
///
/// ```swift
/// let predicate = try PredicateTranslator.translate(#Predicate<Book> { $0.price < 20 && $0.title != nil })
/// predicate.predicateFormat     // price < 20 AND title != nil
/// ```
struct PredicateTranslator {
    /// What each closure variable stands for: the evaluated object, the wrapped value of an
    /// optional chain, or a SUBQUERY variable.
    var bindings: [PredicateExpressions.VariableID: TranslatedTerm] = [:]
    /// SUBQUERY variables made so far (their names are `$x1`, `$x2`, …).
    var subqueries = 0

    /// The predicate-language form of a whole predicate.
    static func translate<Root: EntityObject>(_ predicate: Predicate<Root>) throws(PredicateTranslationError) -> ObjectPredicate {
        var translator = PredicateTranslator()
        translator.bindings[predicate.variable.key] = TranslatedTerm(expression: .keyPath([]), kind: .object(Root.self), text: "$0")
        return try translator.predicate(of: predicate.expression)
    }

    // MARK: - Sub-expressions

    mutating func translate(_ expression: Any) throws(PredicateTranslationError) -> Translation {
        guard let translatable = expression as? any TranslatableExpression else {
            throw PredicateTranslationError(part: Self.describe(type(of: expression)), reason: "this kind of expression has no counterpart in a fetch")
        }
        return try translatable.translate(&self)
    }

    /// A value-valued sub-expression.
    mutating func term(of expression: Any) throws(PredicateTranslationError) -> TranslatedTerm {
        switch try translate(expression) {
        case .term(let term): return term
        case .predicate(let predicate):
            throw PredicateTranslationError(part: predicate.text, reason: "a condition used as a value")
        }
    }

    /// A Bool-valued sub-expression, as a predicate (a Bool property `p` is `p == YES`).
    mutating func predicate(of expression: Any) throws(PredicateTranslationError) -> ObjectPredicate {
        try predicate(from: try translate(expression))
    }

    func predicate(from translation: Translation) throws(PredicateTranslationError) -> ObjectPredicate {
        switch translation {
        case .predicate(let predicate):
            guard predicate.nilWhen == nil else {
                throw PredicateTranslationError(part: predicate.text, reason: "an optional Bool needs a default (`?? false`)")
            }
            return predicate.predicate
        case .term(let term):
            if case .constant(.attribute(.bool(let value))) = term.kind { return .constant(value) }
            return compare(term, .equalTo, .constant(.bool(true), text: "true"))
        }
    }

    /// The name of a new SUBQUERY variable.
    mutating func newVariableName() -> String {
        subqueries += 1
        return "x\(subqueries)"
    }

    // MARK: - Comparisons

    /// `left op right` with Swift's answer where either side reads nil in the predicate
    /// language but a value in Swift (see ``TranslatedTerm/nullCases``).
    func compare(_ left: TranslatedTerm, _ op: ComparisonOperator, _ right: TranslatedTerm, options: ComparisonOptions = []) -> ObjectPredicate {
        let plain = ObjectPredicate.comparison(ComparisonPredicate(left.expression, op, right.expression, options: options))
        if left.nullCases.isEmpty, right.nullCases.isEmpty { return plain }
        if agreesOnNil(left, op, right, options) { return plain }
        // Every combination of one case (or none) per side.
        var alternatives: [ObjectPredicate] = []
        for leftCase in [nil] + left.nullCases.map(Optional.some) {
            for rightCase in [nil] + right.nullCases.map(Optional.some) {
                var parts = Self.guards(left, leftCase) + Self.guards(right, rightCase)
                let l = leftCase.map { ObjectExpression.constant($0.swiftValue) } ?? left.expression
                let r = rightCase.map { ObjectExpression.constant($0.swiftValue) } ?? right.expression
                if case .constant(let a) = l, case .constant(let b) = r {
                    guard (try? PredicateEvaluator.compare(a, op, b, options: options)) == true else { continue }
                } else {
                    parts.append(.comparison(ComparisonPredicate(l, op, r, options: options)))
                }
                alternatives.append(Self.and(parts))
            }
        }
        return Self.or(alternatives)
    }

    /// Whether the predicate language already gives Swift's answer in every null case: each
    /// side that has cases faces a constant, and the comparison with nil answers as the
    /// comparison with what Swift reads.
    private func agreesOnNil(_ left: TranslatedTerm, _ op: ComparisonOperator, _ right: TranslatedTerm, _ options: ComparisonOptions) -> Bool {
        func answer(_ a: PredicateValue, _ b: PredicateValue) -> Bool? { try? PredicateEvaluator.compare(a, op, b, options: options) }
        for (term, other, isLeft) in [(left, right, true), (right, left, false)] where !term.nullCases.isEmpty {
            guard let constant = other.constantValue, other.nullCases.isEmpty else { return false }
            let ours = isLeft ? answer(.null, constant) : answer(constant, .null)
            for nullCase in term.nullCases {
                let swift = isLeft ? answer(nullCase.swiftValue, constant) : answer(constant, nullCase.swiftValue)
                if swift != ours { return false }
            }
        }
        return true
    }

    /// The conditions of one side's case: the case's own, or that none of its cases holds.
    private static func guards(_ term: TranslatedTerm, _ chosen: TranslatedTerm.NullCase?) -> [ObjectPredicate] {
        if let chosen { return [chosen.condition] }
        return term.nullCases.map { negate($0.condition) }
    }

    // MARK: - Building predicates

    static func isNil(_ expression: ObjectExpression) -> ObjectPredicate {
        .comparison(ComparisonPredicate(expression, .equalTo, .constant(.null)))
    }

    static func isNotNil(_ expression: ObjectExpression) -> ObjectPredicate {
        .comparison(ComparisonPredicate(expression, .notEqualTo, .constant(.null)))
    }

    /// `NOT p`, with `x == nil` and `x != nil` turned into each other.
    static func negate(_ predicate: ObjectPredicate) -> ObjectPredicate {
        switch predicate {
        case .constant(let value): return .constant(!value)
        case .not(let inner): return inner
        case .comparison(var c) where c.modifier == .direct && (c.comparisonOperator == .equalTo || c.comparisonOperator == .notEqualTo):
            if case .constant(.null) = c.right {
                c.comparisonOperator = c.comparisonOperator == .equalTo ? .notEqualTo : .equalTo
                return .comparison(c)
            }
            return .not(predicate)
        default: return .not(predicate)
        }
    }

    /// AND of parts, constants folded, nested ANDs flattened.
    static func and(_ parts: [ObjectPredicate]) -> ObjectPredicate {
        var kept: [ObjectPredicate] = []
        for part in parts {
            switch part {
            case .constant(true): continue
            case .constant(false): return .constant(false)
            case .and(let inner): kept += inner
            default: kept.append(part)
            }
        }
        return kept.count == 1 ? kept[0] : kept.isEmpty ? .constant(true) : .and(kept)
    }

    /// OR of parts, constants folded, nested ORs flattened.
    static func or(_ parts: [ObjectPredicate]) -> ObjectPredicate {
        var kept: [ObjectPredicate] = []
        for part in parts {
            switch part {
            case .constant(false): continue
            case .constant(true): return .constant(true)
            case .or(let inner): kept += inner
            default: kept.append(part)
            }
        }
        return kept.count == 1 ? kept[0] : kept.isEmpty ? .constant(false) : .or(kept)
    }

    // MARK: - Messages

    /// A Foundation expression type as a reader knows it: `Conditional` is a ternary.
    static func describe(_ type: Any.Type) -> String {
        let full = String(describing: type)
        let name = String(full.prefix { $0 != "<" })
        let known = [
            "Conditional": "a ? b : c", "IntDivision": "integer division (/)", "IntRemainder": "remainder (%)",
            "TypeCheck": "is", "ConditionalCast": "as?", "ForceCast": "as!", "StringContainsRegex": "contains(Regex)",
            "PredicateRegex": "a regular expression", "Filter": "filter", "DictionaryKeySubscript": "a dictionary subscript",
            "DictionaryKeyDefaultValueSubscript": "a dictionary subscript", "CollectionIndexSubscript": "a subscript",
            "CollectionRangeSubscript": "a range subscript", "SequenceMaximum": "max()", "SequenceMinimum": "min()",
            "ExpressionEvaluate": "evaluate(…)",
        ]
        return known[name] ?? name
    }

    /// A constant as Swift writes it.
    static func text(of value: PredicateValue) -> String {
        switch value {
        case .null: "nil"
        case .attribute(.string(let s)): "\"\(s)\""
        default: "\(value)"
        }
    }
}
