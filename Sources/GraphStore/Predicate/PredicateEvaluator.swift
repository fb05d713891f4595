import Foundation

/// Evaluates predicates in memory with Foundation's semantics (see the grammar notes §3–4).
///
/// Both sides of a comparison are evaluated first; `ANY`/`ALL` then iterate the left side.
/// Expressions are evaluated in `PredicateEvaluator+Expressions.swift`.
struct PredicateEvaluator {
    /// `$VARIABLE` bindings; SUBQUERY adds its own variable for each element.
    var variables: [String: PredicateValue]
    /// What `CAST('Name', 'Class')` names: classes a caller registered (a migration's
    /// functions); none by default.
    var classes: [String: PredicateValue] = [:]

    func evaluate(_ predicate: ObjectPredicate, on object: PredicateValue) throws -> Bool {
        switch predicate {
        case .constant(let value):
            return value
        case .comparison(let comparison):
            return try evaluate(comparison, on: object)
        case .and(let operands):
            for operand in operands where try !evaluate(operand, on: object) { return false }
            return true
        case .or(let operands):
            for operand in operands where try evaluate(operand, on: object) { return true }
            return false
        case .not(let operand):
            return try !evaluate(operand, on: object)
        }
    }

    func evaluate(_ comparison: ComparisonPredicate, on object: PredicateValue) throws -> Bool {
        let left = try value(of: comparison.left, on: object)
        let right = try value(of: comparison.right, on: object)
        let op = comparison.comparisonOperator
        let options = comparison.options
        switch comparison.modifier {
        case .direct:
            return try PredicateEvaluator.compare(left, op, right, options: options)
        case .any:
            for element in try PredicateEvaluator.modifierElements(left)
            where try PredicateEvaluator.compare(element, op, right, options: options) {
                return true
            }
            return false
        case .all:
            for element in try PredicateEvaluator.modifierElements(left)
            where try !PredicateEvaluator.compare(element, op, right, options: options) {
                return false
            }
            return true
        }
    }

    /// The elements ANY/ALL iterate; nil counts as empty (to-many relationships are never nil).
    static func modifierElements(_ value: PredicateValue) throws -> [PredicateValue] {
        if value.isNull { return [] }
        guard let elements = value.collectionElements else {
            throw PredicateEvaluationError(
                "the left side of an ANY or ALL comparison must be a collection, not \(ValueComparison.kind(of: value))")
        }
        return elements
    }

    /// One comparison between two plain values.
    static func compare(_ left: PredicateValue, _ op: ComparisonOperator, _ right: PredicateValue,
        options: ComparisonOptions) throws -> Bool
    {
        switch op {
        case .equalTo:
            return ValueComparison.equal(left, right, options: options)
        case .notEqualTo:
            return !ValueComparison.equal(left, right, options: options)
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            return try ordered(left, op, right, options: options)
        case .like, .matches, .beginsWith, .endsWith:
            if left.isNull || right.isNull { return false }
            guard let text = left.stringValue, let pattern = right.stringValue else {
                throw PredicateEvaluationError(
                    "\(op.symbol) needs strings on both sides, not \(ValueComparison.kind(of: left)) and \(ValueComparison.kind(of: right))")
            }
            switch op {
            case .like: return try StringMatching.like(text, pattern: pattern, options: options)
            case .matches: return try StringMatching.matches(text, pattern: pattern, options: options)
            case .beginsWith: return StringMatching.hasPrefix(text, pattern, options: options)
            default: return StringMatching.hasSuffix(text, pattern, options: options)
            }
        case .contains:
            return try contains(left, right, options: options)
        case .in:
            return try contains(right, left, options: options)
        case .between:
            guard let bounds = right.collectionElements, case .array = right, bounds.count == 2 else {
                throw PredicateEvaluationError("the right side of BETWEEN must be an array of two bounds {lower, upper}")
            }
            if left.isNull { return false }
            return try ordered(bounds[0], .lessThanOrEqualTo, left, options: options)
                && ordered(left, .lessThanOrEqualTo, bounds[1], options: options)
        case .utiEquals:
            guard let a = left.stringValue, let b = right.stringValue else { return false }
            return a.lowercased() == b.lowercased()
        case .utiConformsTo:
            guard let a = left.stringValue, let b = right.stringValue else { return false }
            if a.lowercased() == b.lowercased() { return true }
            throw PredicateEvaluationError("UTI-CONFORMS-TO needs the system's type tree, which is not available")
        }
    }

    /// `< <= > >=`: nil matches nothing, except that nil <= nil and nil >= nil hold.
    static func ordered(_ left: PredicateValue, _ op: ComparisonOperator, _ right: PredicateValue,
        options: ComparisonOptions) throws -> Bool
    {
        if left.isNull || right.isNull {
            return left.isNull && right.isNull && (op == .lessThanOrEqualTo || op == .greaterThanOrEqualTo)
        }
        let order = try ValueComparison.order(left, right, options: options)
        switch op {
        case .lessThan: return order == .orderedAscending
        case .lessThanOrEqualTo: return order != .orderedDescending
        case .greaterThan: return order == .orderedDescending
        default: return order != .orderedAscending
        }
    }

    /// CONTAINS (and IN, mirrored): membership in a collection or a dictionary's values,
    /// or a substring test when both sides are strings.
    static func contains(_ container: PredicateValue, _ element: PredicateValue, options: ComparisonOptions) throws
        -> Bool
    {
        if container.isNull || element.isNull { return false }
        switch container {
        case .attribute(.string(let text)):
            guard let part = element.stringValue else {
                throw PredicateEvaluationError("cannot look for \(ValueComparison.kind(of: element)) in a string")
            }
            return StringMatching.contains(text, part, options: options)
        case .array(let elements), .set(let elements):
            return elements.contains { ValueComparison.equal($0, element, options: options) }
        case .object(let object as KeyValueDictionary):
            return object.entries.values.contains { ValueComparison.equal($0, element, options: options) }
        default:
            throw PredicateEvaluationError(
                "IN and CONTAINS need a collection or a string, not \(ValueComparison.kind(of: container))")
        }
    }
}
