import Foundation
import Testing

@testable import GraphStore

@Suite("Predicate parser")
struct PredicateParserTests {
    private func comparison(_ format: String, _ arguments: any PredicateArgument...) throws -> ComparisonPredicate {
        let predicate = try ObjectPredicate(format: format, argumentArray: arguments)
        guard case .comparison(let comparison) = predicate else {
            Issue.record("not a comparison: \(predicate)")
            throw PredicateEvaluationError("not a comparison")
        }
        return comparison
    }

    @Test("a comparison keeps key path components, operator, modifier and options")
    func comparisonParts() throws {
        let c = try comparison("ANY children.name LIKE[cd] 'b*'")
        guard case .keyPath(let path) = c.left else { throw PredicateEvaluationError("left is not a key path") }
        #expect(path == ["children", "name"])
        #expect(c.comparisonOperator == .like)
        #expect(c.modifier == .any)
        #expect(c.options == [.caseInsensitive, .diacriticInsensitive])
    }

    @Test("AND binds tighter than OR; chains are flat; NOT takes the next primary")
    func precedence() throws {
        let predicate = try ObjectPredicate(format: "a == 1 OR b == 2 AND c == 3 AND d == 4 OR e == 5")
        guard case .or(let operands) = predicate, operands.count == 3, case .and(let inner) = operands[1] else {
            Issue.record("wrong shape: \(predicate)")
            return
        }
        #expect(inner.count == 3)
        let negated = try ObjectPredicate(format: "NOT a == 1 AND b == 2")
        guard case .and(let parts) = negated, case .not = parts[0] else {
            Issue.record("NOT should bind to the first comparison: \(negated)")
            return
        }
    }

    @Test("NONE is NOT(ANY …); SOME is ANY")
    func qualifiers() throws {
        guard case .not(.comparison(let c)) = try ObjectPredicate(format: "NONE tags == 'x'") else {
            Issue.record("NONE should parse as NOT ANY")
            return
        }
        #expect(c.modifier == .any)
        #expect(try comparison("SOME tags == 'x'").modifier == .any)
    }

    @Test("arithmetic precedence: ** over * / over + -, left-associative")
    func arithmetic() throws {
        let c = try comparison("1 + 2 * 3 ** 2 - 4 == 0")
        guard case .arithmetic(.subtract, .arithmetic(.add, _, .arithmetic(.multiply, _, .arithmetic(.power, _, _))), _) =
            c.left
        else {
            Issue.record("wrong arithmetic tree: \(c.left)")
            return
        }
    }

    @Test("parentheses group expressions or predicates as their contents say")
    func parentheses() throws {
        #expect(try ObjectPredicate(format: "(age + 1) * 2 == 62").predicateFormat == "(age + 1) * 2 == 62")
        #expect(try ObjectPredicate(format: "((age > 1))").predicateFormat == "age > 1")
        #expect(try ObjectPredicate(format: "(SUBQUERY(c, $x, $x > 1).@count) == 0").predicateFormat
            == "SUBQUERY(c, $x, $x > 1).@count == 0")
    }

    @Test("format arguments: %@ is a constant, %K a key path, printf forms convert")
    func formatArguments() throws {
        #expect(try ObjectPredicate(format: "%@ LIKE %@", "firstName", "Adam").predicateFormat
            == #""firstName" LIKE "Adam""#)
        #expect(try ObjectPredicate(format: "%K == %d", "address.zip", 75001.9).predicateFormat == "address.zip == 75001")
        #expect(try ObjectPredicate(format: "x < %f AND y == %s", 2, "s").predicateFormat == #"x < 2 AND y == "s""#)
        #expect(try ObjectPredicate(format: "x == %@", PredicateValue.null).predicateFormat == "x == nil")
        #expect(try ObjectPredicate(format: "x IN %@", [1, 2]).predicateFormat == "x IN {1, 2}")
    }

    @Test("index selectors, SUBQUERY, CAST, FUNCTION and built-in functions")
    func constructs() throws {
        let c = try comparison("tags[LAST] == 'core'")
        guard case .index(.keyPath(["tags"]), .last) = c.left else {
            Issue.record("wrong index: \(c.left)")
            return
        }
        guard case .subquery(_, "c", _) = try comparison("SUBQUERY(kids, $c, $c.age > 1).@count > 0").left.base
        else {
            Issue.record("SUBQUERY not parsed")
            return
        }
        guard case .constant(.attribute(.date)) = try comparison("d == CAST(0, 'NSDate')").right else {
            Issue.record("CAST of a number to NSDate should be a date constant")
            return
        }
        guard case .function(.sum, _) = try comparison("sum({1, 2}) == 3").left else {
            Issue.record("sum( not parsed as sum:")
            return
        }
        guard case .function(.add, _) = try comparison("add:to:(1, 2) == 3").left else {
            Issue.record("add:to:( not parsed")
            return
        }
        guard case .selector(_, "uppercaseString", _) = try comparison("FUNCTION(name, 'uppercaseString') == 'A'").left
        else {
            Issue.record("FUNCTION not parsed")
            return
        }
    }

    @Test("reserved words cannot be keys unless escaped")
    func reservedWords() throws {
        #expect(throws: PredicateParseError.self) { try ObjectPredicate(format: "in == 1") }
        #expect(throws: PredicateParseError.self) { try ObjectPredicate(format: "a.size == 1") }
        // The canonical text keeps the escapes, so that it parses back to the same keys.
        #expect(try ObjectPredicate(format: "#in == 1 AND a.#size == 2").predicateFormat == "#in == 1 AND a.#size == 2")
    }

    @Test("an expression parses on its own")
    func standaloneExpression() throws {
        let expression = try ObjectExpression(format: "2 ** 3 + %@", 1)
        #expect(expression.expressionFormat == "(2 ** 3) + 1")
        #expect(ValueComparison.equal(try expression.value(), .double(9)))
    }
}

extension ObjectExpression {
    /// The base of a member expression, for pattern matching in tests.
    fileprivate var base: ObjectExpression {
        if case .member(let base, _) = self { return base }
        return self
    }
}
