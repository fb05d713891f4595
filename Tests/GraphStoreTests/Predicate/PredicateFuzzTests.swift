import Foundation
import Testing

@testable import GraphStore

@Suite("Predicate fuzzing")
struct PredicateFuzzTests {
    static let seeds = [
        "name == 'Alice' AND age > 20", "ANY children.age BETWEEN {1, 10}", "SUBQUERY(k, $x, $x.a > 1).@count == 0",
        "tags[FIRST] LIKE[cd] 'a*?'", "NOT (a == 1 OR b != nil)", "%K == %@", "(age + 1) * 2 ** 3 >= -4",
        "FUNCTION('a', 'uppercaseString') == 'A'", "sum({1, 2.5, 0x1F}) < %d", "name MATCHES '[a-z]+(x|y)*'",
        "CAST('42', 'NSNumber') == 42", "$v IN {1, 'two', nil}", "x.@avg.y != TRUEPREDICATE", "#in == \"a\\\"b\"",
    ]

    static let fragments = [
        "(", ")", "{", "}", "[", "]", ",", ".", "'", "\"", "\\", "%@", "%K", "%d", "%", "$x", "@count", "#", "==", "=",
        "!=", "<", ">", "<=", "=>", "<>", "&&", "||", "!", "+", "-", "*", "/", "**", "&", "|", "^", "<<", ">>", "~",
        ":", ":=", "AND", "OR", "NOT", "ANY", "ALL", "NONE", "SOME", "IN", "LIKE", "MATCHES", "CONTAINS", "BETWEEN",
        "BEGINSWITH", "SUBQUERY", "CAST", "FUNCTION", "FIRST", "LAST", "SIZE", "SELF", "nil", "TRUEPREDICATE", "[cd]",
        "name", "age", "children", "sum", "now", "1", "0x", "2.5e", "1e9", "'x'", " ", "é", "\u{0}", "?", "\n",
    ]

    static let object: PredicateValue = [
        "name": "Alice", "age": 30, "x": [["y": 1], ["y": nil]], "k": [["a": 2]], "tags": ["a", "b"],
        "children": [["age": 3], ["age": 12]],
    ]

    /// Parses, prints, re-parses and evaluates; anything but a typed result or error fails.
    private static func exercise(_ text: String) {
        do {
            let predicate = try ObjectPredicate(format: text, "name", 7, [1, 2])
            let printed = predicate.predicateFormat
            _ = try? ObjectPredicate(format: printed, "name", 7, [1, 2])
            do {
                _ = try predicate.evaluate(withValue: object, substitutionVariables: ["x": 1, "v": "two"])
            } catch is PredicateEvaluationError {
            } catch {
                Issue.record("evaluation of \(text.debugDescription) threw \(error)")
            }
        } catch is PredicateParseError {
        } catch {
            Issue.record("parsing \(text.debugDescription) threw \(error)")
        }
    }

    @Test("random token soup and mutated predicates return or throw typed errors", .timeLimit(.minutes(5)))
    func fuzz() {
        var random = SeededGenerator(state: 0x5EED_2024)
        var seeds = PredicateFuzzTests.seeds
        if let corpus = PredicateVectorCorpus.url, let text = try? String(contentsOf: corpus, encoding: .utf8) {
            for line in text.split(separator: "\n") {
                if let vector = try? PredicateVector(jsonLine: String(line)) { seeds.append(vector.format) }
            }
        }
        let iterations = 30_000
        for iteration in 0..<iterations {
            let text: String
            switch iteration % 3 {
            case 0:
                let count = Int.random(in: 1...14, using: &random)
                text = (0..<count).map { _ in PredicateFuzzTests.fragments.randomElement(using: &random) ?? "" }
                    .joined(separator: Bool.random(using: &random) ? " " : "")
            case 1:
                var scalars = Array((seeds.randomElement(using: &random) ?? "").unicodeScalars)
                for _ in 0...Int.random(in: 0...3, using: &random) {
                    let position = Int.random(in: 0...scalars.count, using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0 where position < scalars.count: scalars.remove(at: position)
                    case 1:
                        let fragment = PredicateFuzzTests.fragments.randomElement(using: &random) ?? ""
                        scalars.insert(contentsOf: fragment.unicodeScalars, at: position)
                    default:
                        if position < scalars.count, let other = scalars.randomElement(using: &random) {
                            scalars[position] = other
                        }
                    }
                }
                text = String(String.UnicodeScalarView(scalars))
            default:
                let count = Int.random(in: 0...24, using: &random)
                text = String(
                    String.UnicodeScalarView(
                        (0..<count).map { _ in Unicode.Scalar(UInt8.random(in: 0...127, using: &random)) }))
            }
            PredicateFuzzTests.exercise(text)
        }
    }
}
