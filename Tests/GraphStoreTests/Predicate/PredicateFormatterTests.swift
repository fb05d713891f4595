import Foundation
import Testing

@testable import GraphStore

@Suite("Predicate canonical formatter")
struct PredicateFormatterTests {
    @Test(
        "prints Apple's predicateFormat",
        arguments: [
            ("age = 30", "age == 30"),
            ("age <> 31 && name =< 'b'", #"age != 31 AND name <= "b""#),
            ("active == YES OR active == false", "active == 1 OR active == 0"),
            (#"name == "a\"b""#, #"name == "a\"b""#),
            ("name ==[cd] 'x' AND name like[c] 'y*'", #"name ==[cd] "x" AND name LIKE[c] "y*""#),
            ("!(name == 'Alice')", #"NOT name == "Alice""#),
            ("NONE kids.age > 10", "NOT ANY kids.age > 10"),
            ("SOME kids.age > 10", "ANY kids.age > 10"),
            ("(a == 1 OR b == 2) AND c == 3", "(a == 1 OR b == 2) AND c == 3"),
            ("(a == 1) AND (b == 2) AND (c == 3)", "a == 1 AND b == 2 AND c == 3"),
            ("NOT (a == 1 AND b == 2)", "NOT (a == 1 AND b == 2)"),
            ("age BETWEEN {18, 65}", "age BETWEEN {18, 65}"),
            ("truepredicate", "TRUEPREDICATE"),
            ("x == 7.5 AND y == 30.0 AND z == 1e-9 AND w == 0x10", "x == 7.5 AND y == 30 AND z == 1e-09 AND w == 16"),
            ("1 + 2 * 3 == 7", "1 + (2 * 3) == 7"),
            ("-age == -30", "-age == -30"),
            ("sum({1, 2}) == 3 AND now() > d", "sum:({1, 2}) == 3 AND now() > d"),
            ("kids[FIRST].name == 'a' AND info['k'] == 1", #"kids[FIRST].name == "a" AND info["k"] == 1"#),
            ("SUBQUERY(kids, $k, $k.age > 1).@count == 0", "SUBQUERY(kids, $k, $k.age > 1).@count == 0"),
            ("CAST('42', 'NSNumber') == 42", #"CAST("42", "NSNumber") == 42"#),
            ("d > CAST(627978600, 'NSDate')", #"d > CAST(627978600.000000, "NSDate")"#),
            ("a & 3 == a", "a & 3 == a"),
            ("#in == 1 AND kids.#first.#like == 'x'", #"#in == 1 AND kids.#first.#like == "x""#),
        ])
    func canonical(format: String, expected: String) throws {
        #expect(try ObjectPredicate(format: format).predicateFormat == expected)
    }

    @Test("a date argument prints as CAST of seconds since 2001")
    func dates() throws {
        let date = Date(timeIntervalSinceReferenceDate: 627_978_600)
        #expect(try ObjectPredicate(format: "born > %@", date).predicateFormat
            == #"born > CAST(627978600.000000, "NSDate")"#)
    }

    @Test(
        "canonical text reads back to the same canonical text",
        arguments: [
            #"name == "it's \"quoted\" \\ here""#, "a == 1 OR (b == 2 AND NOT c == 3)",
            "ANY kids.age BETWEEN {1, 2}", #"name MATCHES[c] "a.*" AND name IN {"x", "y"}"#,
            "SUBQUERY(kids, $k, SUBQUERY($k.toys, $t, $t.name == \"ball\").@count > 0).@count == 1",
            "(1 + 2) * 3 ** 2 == -7", "x[SIZE] == 0 AND x[2] == 1 AND x.@max.age > 3",
            #"FUNCTION("toto", "uppercaseString") == "TOTO""#, "abs:(-7) == 7", "ALL tags LIKE[cd] \"*\"",
        ])
    func roundTrip(format: String) throws {
        let once = try ObjectPredicate(format: format).predicateFormat
        let twice = try ObjectPredicate(format: once).predicateFormat
        #expect(once == twice)
    }

    @Test("built programmatically, nested compounds are parenthesized")
    func programmaticCompounds() {
        let a = ObjectPredicate.comparison(ComparisonPredicate(.keyPath(["a"]), .equalTo, .constant(1)))
        let b = ObjectPredicate.comparison(ComparisonPredicate(.keyPath(["b"]), .greaterThan, .constant("x")))
        #expect(ObjectPredicate.and([.and([a, b]), a]).predicateFormat == #"(a == 1 AND b > "x") AND a == 1"#)
        #expect(ObjectPredicate.and([]).predicateFormat == "TRUEPREDICATE")
        #expect(ObjectPredicate.or([]).predicateFormat == "FALSEPREDICATE")
    }
}
