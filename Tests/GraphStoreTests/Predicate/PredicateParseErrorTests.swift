import Testing

@testable import GraphStore

@Suite("Predicate parse errors")
struct PredicateParseErrorTests {
    private func error(_ format: String, _ arguments: any PredicateArgument...) -> PredicateParseError? {
        do {
            _ = try ObjectPredicate(format: format, argumentArray: arguments)
            return nil
        } catch let error as PredicateParseError {
            return error
        } catch {
            Issue.record("unexpected error type: \(error)")
            return nil
        }
    }

    @Test("renders as col N: message")
    func rendering() {
        #expect(error("name == ")?.description == "col 9: expected a value after '=='")
        #expect(error("age > 20 AND name ==")?.description == "col 21: expected a value after '=='")
        #expect(error("name == )")?.description == "col 9: expected a value after '==', found ')'")
    }

    @Test(
        "points at the offending column",
        arguments: [
            ("", 1), ("age", 4), ("age == 30 30", 11), ("a == 1)", 7), ("(a == 1", 8), ("a == 'x", 6),
            ("age === 30", 7), ("age ~= 30", 5), ("? = 1", 1), ("1+1 /* c */ == 2", 5), ("like == 'x'", 1),
            ("a == 1 AND", 11), ("ANY", 4), ("nosuch(1) == 1", 1), ("tags[FIRST == 'x'", 12), ("%k == 1", 1),
            ("name LIKE", 10), ("age BETWEEN", 12), ("TRUEPREDICATE == 1", 15), ("a ==[x] 1", 6),
        ])
    func columns(format: String, column: Int) {
        #expect(error(format)?.column == column, "\(format): \(String(describing: error(format)))")
    }

    @Test("missing and mistyped format arguments")
    func arguments() {
        #expect(error("a == %@ AND b == %@", 1)?.description == "col 18: missing argument for %@ (argument 2)")
        #expect(error("%K == 1", 5)?.column == 1)
        #expect(error("a == %d", "x")?.column == 6)
    }

    @Test("nesting up to the limit parses, prints and evaluates")
    func nestingWithinLimit() throws {
        let levels = 90
        let predicate = String(repeating: "(", count: levels) + "1 < 2" + String(repeating: ")", count: levels)
        #expect(try ObjectPredicate(format: predicate).evaluate(with: [:]))
        let expression = "x == " + String(repeating: "(", count: levels) + "1" + String(repeating: ")", count: levels)
        #expect(try ObjectPredicate(format: expression).predicateFormat == "x == 1")
        let negations = String(repeating: "NOT ", count: levels) + "1 < 2"
        #expect(try ObjectPredicate(format: negations).evaluate(with: [:]))
        let sums = "x == 0" + String(repeating: " + 1", count: levels)
        #expect(try ObjectPredicate(format: sums).evaluate(with: ["x": 90]))
    }

    @Test("nesting is bounded instead of overflowing the stack")
    func deepNesting() {
        let deep = String(repeating: "(", count: 5000) + "a == 1" + String(repeating: ")", count: 5000)
        #expect(error(deep)?.message == "the predicate is nested too deeply")
        #expect(error(String(repeating: "NOT ", count: 5000) + "a == 1") != nil)
        #expect(error("a == " + String(repeating: "-", count: 5000) + "1") != nil)
        #expect(error("a == 1" + String(repeating: " + 1", count: 5000)) != nil)
        #expect(error("a == x" + String(repeating: "[0]", count: 5000)) != nil)
        #expect(error("a == " + String(repeating: "{", count: 5000)) != nil)
    }
}
