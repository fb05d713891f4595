import Foundation
import Testing

@testable import GraphStore

/// A class-backed source, standing in for a managed object: compared by identity.
private final class Node: KeyValueSource, PredicateArgument {
    let name: String
    let children: [Node]
    let parent: Node?

    init(_ name: String, children: [Node] = [], parent: Node? = nil) {
        self.name = name
        self.children = children
        self.parent = parent
    }

    func value(forKey key: String) -> PredicateValue {
        switch key {
        case "name": .string(name)
        case "children": .array(children.map { .object($0) })
        case "parent": parent.map { .object($0) } ?? .null
        default: .null
        }
    }
}

@Suite("Predicate evaluator")
struct PredicateEvaluatorTests {
    private let person: [String: PredicateValue] = [
        "name": "Alice", "age": 30, "score": 7.5, "tags": ["swift", "objc"],
        "children": [["name": "Bob", "age": 5, "toys": [["name": "ball"]]], ["name": "Carol", "age": 12, "toys": []]],
        "pets": [], "nothing": nil,
    ]

    private func check(_ format: String, _ arguments: any PredicateArgument..., variables: [String: PredicateValue] = [:])
        throws -> Bool
    {
        try ObjectPredicate(format: format, argumentArray: arguments).evaluate(with: person, substitutionVariables: variables)
    }

    @Test("nil: only nil equals nil; ordering against nil is false; != nil-vs-value is true")
    func nilSemantics() throws {
        #expect(try check("missing == nil"))
        #expect(try check("nothing == nil"))
        #expect(try !check("age > nil"))
        #expect(try check("missing <= nil"))
        #expect(try !check("missing < nil"))
        #expect(try check("missing != 'Bob'"))
        #expect(try !check("missing BEGINSWITH 'a'"))
    }

    @Test("numbers never equal strings; ordering them throws")
    func mixing() throws {
        #expect(try !check("age == '30'"))
        #expect(try check("age == 30.0 AND YES == 1"))
        #expect(throws: PredicateEvaluationError.self) { try check("age < 'x'") }
    }

    @Test("strings order case-sensitively by Unicode; [c] and [d] fold")
    func strings() throws {
        #expect(try check("'XYZ' < 'abc' AND 'abC' < 'abc' AND 'x z' < 'xz'"))
        #expect(try check("'café' ==[d] 'cafe' AND 'CAFÉ' ==[c] 'café' AND NOT 'café' ==[c] 'CAFE'"))
        #expect(try check("'straße' ==[c] 'STRASSE'"))
        #expect(try check("'Citroën' CONTAINS[cd] 'citroen'"))
        #expect(try !check("name BEGINSWITH ''"))
    }

    @Test("LIKE wildcards and escapes; MATCHES is anchored")
    func patterns() throws {
        #expect(try check("'hello' LIKE 'hel?o' AND NOT 'helo' LIKE 'hel?o' AND 'a.c' LIKE 'a.c' AND NOT 'abc' LIKE 'a.c'"))
        #expect(try check("'a*b' LIKE %@ AND NOT 'axb' LIKE %@", "a\\*b", "a\\*b"))
        #expect(try check("'ab' MATCHES 'a|ab' AND NOT 'Alice' MATCHES 'l.c' AND 'Café' MATCHES[cd] 'cafe'"))
        #expect(throws: PredicateEvaluationError.self) { try check("name MATCHES '('") }
    }

    @Test("ANY/ALL/NONE and empty collections; ANY over a scalar throws")
    func qualifiers() throws {
        #expect(try check("ANY children.age > 10 AND NOT ALL children.age > 10"))
        #expect(try check("ALL pets.age > 1 AND NONE pets.age > 1 AND NOT ANY pets.age > 1"))
        #expect(throws: PredicateEvaluationError.self) { try check("ANY name == 'x'") }
    }

    @Test("KVC maps over arrays without flattening; collection operators")
    func keyValueCoding() throws {
        #expect(try check("children.name CONTAINS 'Bob' AND NOT children.name == 'Bob'"))
        #expect(try !check("ANY children.toys.name == 'ball'"))
        #expect(try check("children.@count == 2 AND children.@max.age == 12 AND children.@sum.age == 17"))
        #expect(try check("pets.@sum.age == 0 AND children.@avg.age == 8.5 AND name.length == 5"))
        #expect(try check("children.@distinctUnionOfObjects.name CONTAINS 'Carol'"))
    }

    @Test("IN and CONTAINS on collections, dictionaries and strings")
    func membership() throws {
        #expect(try check("'swift' IN tags AND tags CONTAINS 'objc' AND 'lic' IN name AND name IN[c] {'ALICE'}"))
        #expect(try check("'x' IN %@ AND NOT 'k' IN %@", ["k": "x"], ["k": "x"]))
        #expect(throws: PredicateEvaluationError.self) { try check("name IN 3") }
    }

    @Test("BETWEEN is inclusive and needs two bounds")
    func between() throws {
        #expect(try check("age BETWEEN {30, 40} AND NOT age BETWEEN {40, 30}"))
        #expect(throws: PredicateEvaluationError.self) { try check("age BETWEEN {1, 2, 3}") }
    }

    @Test("arithmetic, bitwise and functions")
    func arithmetic() throws {
        #expect(try check("age / 4 == 7 AND age / 4.0 == 7.5 AND 2 ** 10 == 1024 AND 6 & 3 == 2 AND 1 << 4 == 16"))
        #expect(try check("sqrt(16) == 4 AND average({1, 2, 3}) == 2 AND median({3, 1, 2}) == 2 AND abs(-7) == 7"))
        #expect(try check("FUNCTION('toto', 'stringByReplacingOccurrencesOfString:withString:', 'o', 'a') == 'tata'"))
        #expect(throws: PredicateEvaluationError.self) { try check("age / 0 == 1") }
        #expect(throws: PredicateEvaluationError.self) { try check("missing + 1 == 1") }
    }

    @Test("variables: bound at evaluation or by substitution; unbound throws; SUBQUERY shadows")
    func variables() throws {
        #expect(try check("$min < age", variables: ["min": 18]))
        #expect(throws: PredicateEvaluationError.self) { try check("$min < age") }
        let predicate = try ObjectPredicate(format: "SUBQUERY(children, $c, $c.age > $min).@count == $n")
        let bound = predicate.withSubstitutionVariables(["min": 6, "n": 1, "c": "ignored"])
        #expect(bound.predicateFormat == "SUBQUERY(children, $c, $c.age > 6).@count == 1")
        #expect(try bound.evaluate(with: person))
    }

    @Test("indexes: FIRST/LAST/SIZE, numbers, dictionary keys; out of range throws")
    func indexes() throws {
        #expect(try check("tags[FIRST] == 'swift' AND tags[LAST] == 'objc' AND tags[SIZE] == 2 AND tags[1] == 'objc'"))
        #expect(try check("children[0]['name'] == 'Bob' AND pets[FIRST] == nil"))
        #expect(throws: PredicateEvaluationError.self) { try check("tags[5] == 'x'") }
    }

    @Test("objects compare by identity and expose to-one and to-many keys")
    func objects() throws {
        let root = Node("root", children: [Node("a"), Node("b")])
        let other = Node("root")
        let child = try #require(root.children.first)
        #expect(try ObjectPredicate(format: "SELF == %@", root).evaluate(with: root))
        #expect(try !ObjectPredicate(format: "SELF == %@", other).evaluate(with: root))
        #expect(try ObjectPredicate(format: "%@ IN children AND ANY children.name == 'b'", child).evaluate(with: root))
        #expect(try ObjectPredicate(format: "parent == nil AND children[LAST].name == 'b'").evaluate(with: root))
    }

    @Test("SELF can be a plain value")
    func selfValue() throws {
        let predicate = try ObjectPredicate(format: "SELF BEGINSWITH[c] 'a'")
        let names: [PredicateValue] = ["Anna", "bob", "alex"]
        #expect(try names.filter { try predicate.evaluate(withValue: $0) }.count == 2)
    }
}
