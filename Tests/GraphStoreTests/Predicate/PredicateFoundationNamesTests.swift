import Foundation
import GraphStore
import Testing

/// A file importing both Foundation and GraphStore must use the predicate API unqualified.
@Suite("Predicate names beside Foundation")
struct PredicateFoundationNamesTests {
    @Test("public names do not collide with Foundation's")
    func unqualifiedNames() throws {
        let predicate: ObjectPredicate = try ObjectPredicate(format: "age > %@", 30)
        let expression: ObjectExpression = .keyPath(["age"])
        let value: PredicateValue = ["age": 31]
        let options: ComparisonOptions = [.caseInsensitive]
        let op: ComparisonOperator = .greaterThan
        let dictionary = KeyValueDictionary(["age": 31])
        _ = (expression, options, op)
        #expect(try predicate.evaluate(withValue: value))
        #expect(try predicate.evaluate(with: dictionary))
        #expect(throws: PredicateParseError.self) { try ObjectPredicate(format: "age >") }
        #expect(throws: PredicateEvaluationError.self) { try ObjectPredicate(format: "$x > 1").evaluate(with: dictionary) }
        // Foundation's own types remain reachable by their names.
        _ = NSPredicate.self
        _ = Date.self
    }
}
