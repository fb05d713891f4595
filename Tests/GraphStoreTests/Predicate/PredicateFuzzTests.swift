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

    /// The tree as a structure, for comparing two parses (`dump` shows every case and value).
    static func structure(_ predicate: ObjectPredicate) -> String {
        var text = ""
        dump(predicate, to: &text)
        return text
    }

    /// The structure with numbers as the canonical text keeps them: Apple prints YES as 1
    /// and 42.0 as 42, so a reparsed tree may hold an integer where the first had a
    /// boolean or a whole double. Summaries after `▿ name:` are left out (they print values).
    static func numbersAsPrinted(_ structure: String) -> String {
        structure.split(separator: "\n").map { line -> String in
            if let marker = line.range(of: "▿ "), let colon = line[marker.upperBound...].firstIndex(of: ":") {
                return String(line[..<colon])
            }
            for kind in ["- bool: ", "- integer: ", "- double: "] {
                guard let range = line.range(of: kind) else { continue }
                let value = line[range.upperBound...]
                let number = value == "true" ? 1 : value == "false" ? 0 : Double(value)
                return line[..<range.lowerBound] + "- number: " + (number.map { "\($0)" } ?? String(value))
            }
            return String(line)
        }.joined(separator: "\n")
    }

    /// Parses; then the canonical text must parse back to the same tree, print the same
    /// text again, and evaluate the same way. Anything but a typed result or error fails.
    private static func exercise(_ text: String) {
        let predicate: ObjectPredicate
        do {
            predicate = try ObjectPredicate(format: text, "name", 7, [1, 2])
        } catch is PredicateParseError {
            return
        } catch {
            Issue.record("parsing \(text.debugDescription) threw \(error)")
            return
        }
        let printed = predicate.predicateFormat
        let reparsed: ObjectPredicate
        do {
            reparsed = try ObjectPredicate(format: printed)
        } catch {
            Issue.record("\(text.debugDescription) prints as \(printed.debugDescription), which does not parse: \(error)")
            return
        }
        #expect(reparsed.predicateFormat == printed, "\(text.debugDescription): the canonical text is not a fixpoint")
        let sameTree = structure(reparsed) == structure(predicate)
        #expect(
            sameTree || numbersAsPrinted(structure(reparsed)) == numbersAsPrinted(structure(predicate)),
            "\(text.debugDescription) → \(printed.debugDescription) parses to another tree")
        // Integer and decimal arithmetic differ (7 / 2 against 7.0 / 2): only the same tree
        // must evaluate the same.
        guard sameTree else { return }
        let variables: [String: PredicateValue] = ["x": 1, "v": "two"]
        let first = outcome { try predicate.evaluate(withValue: object, substitutionVariables: variables) }
        let second = outcome { try reparsed.evaluate(withValue: object, substitutionVariables: variables) }
        if case .unexpected(let error) = first { Issue.record("evaluation of \(text.debugDescription) threw \(error)") }
        // random() and now() differ between two evaluations by design.
        if !printed.contains("random"), !printed.contains("now()") {
            #expect(first == second, "\(text.debugDescription) and its canonical text \(printed.debugDescription) evaluate differently")
        }
    }

    enum Outcome: Equatable {
        case value(Bool)
        case evaluationError
        case unexpected(String)
    }

    private static func outcome(_ evaluate: () throws -> Bool) -> Outcome {
        do {
            return .value(try evaluate())
        } catch is PredicateEvaluationError {
            return .evaluationError
        } catch is RegexMatchError {
            return .evaluationError
        } catch {
            return .unexpected("\(error)")
        }
    }

    @Test("the generated predicates of the differential tests round-trip through the canonical text")
    func generatedRoundTrip() throws {
        var generator = PredicateGenerator(rng: SeededGenerator(state: 0xF0_2024))
        for round in 0..<3_000 {
            generator.employees = round % 4 == 0
            let format = generator.predicate()
            #expect(throws: Never.self) { try ObjectPredicate(format: format) }
            PredicateFuzzTests.exercise(format)
        }
    }

    @Test("random token soup and mutated predicates return or throw typed errors, and round-trip", .timeLimit(.minutes(5)))
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
