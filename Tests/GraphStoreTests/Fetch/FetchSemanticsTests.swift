import Foundation
import Testing

@testable import GraphStore

@Suite("Fetch semantics: nil, typing, strings, errors")
struct FetchSemanticsTests {
    let store: PersistentStore
    let context: ManagedObjectContext

    init() throws {
        (store, context) = try FetchFixtures.sampleStore()
    }

    func names(_ format: String, _ arguments: any PredicateArgument...) throws -> [String] {
        let request = FetchRequest(
            entityName: "Person", predicate: try ObjectPredicate(format: format, argumentArray: arguments), sortKeys: [SortKey("age"), SortKey("name")])
        return try FetchFixtures.names(context.fetch(request))
    }

    /// The documented difference from Core Data's SQLite store: there, `name != "bob"`
    /// compiles to `ZNAME <> ?`, which drops rows whose name is NULL. GraphStore keeps the
    /// in-memory answer (nil differs from "bob") by compiling `!=` to `IS NOT`.
    @Test("!= matches nil, as in memory (Core Data's store does not)")
    func inequalityWithNil() throws {
        #expect(try names("name != 'bob'") == ["dave", "nil", "Éve", "Alice", "Carol"])
        #expect(try store.sql(for: FetchRequest(entityName: "Person", format: "name != 'bob'")).sql.hasSuffix("WHERE t0.ZNAME IS NOT ?"))
        // Core Data's answer, written portably:
        #expect(try names("name != 'bob' AND name != nil") == ["dave", "Éve", "Alice", "Carol"])
        #expect(try names("NOT (name == 'bob')") == ["dave", "nil", "Éve", "Alice", "Carol"])
        #expect(try names("NOT (age > 20)") == ["dave", "nil"])
        #expect(try names("age <= nil") == ["dave"])
        #expect(try names("age < nil").isEmpty)
    }

    @Test("values of another kind never equal, as isEqual: says; SQLite's affinity does not leak")
    func typing() throws {
        #expect(try names("age == '30'").isEmpty)
        #expect(try names("age != '30'").count == 6)
        #expect(try names("name == 30").isEmpty)
        #expect(try names("age IN {'25', 41}") == ["Carol"])
        #expect(try names("age == 30.0") == ["Alice"])
        #expect(throws: PredicateEvaluationError.self) { try names("name < 5") }
    }

    @Test("[c], [d], [cd] fold exactly as the evaluator does")
    func folding() throws {
        #expect(try names("name ==[c] 'BOB'") == ["bob"])
        #expect(try names("name ==[c] 'eve'").isEmpty)
        #expect(try names("name ==[cd] 'eve'") == ["Éve"])
        #expect(try names("name BEGINSWITH[cd] 'e'") == ["Éve"])
        #expect(try names("name LIKE[c] 'a*e'") == ["Alice"])
        #expect(try names("name MATCHES '[A-Z].*'") == ["Alice", "Carol"])
        #expect(try names("name MATCHES[c] 'C.*'") == ["Carol"])
        #expect(try names("name CONTAINS 'li'") == ["Alice"])
        #expect(try names("name ENDSWITH 'e'") == ["dave", "Éve", "Alice"])
        #expect(try names("name <[c] 'c'") == ["bob", "Alice"])
        #expect(try names("name BEGINSWITH ''").isEmpty)
    }

    @Test("an invalid regular expression raises, as in memory")
    func badRegex() throws {
        #expect(throws: PredicateEvaluationError.self) { try names("name MATCHES '(unclosed'") }
        #expect(try store.sql(for: FetchRequest(entityName: "Person", format: "name MATCHES '(unclosed'")).inMemoryPredicate != nil)
    }

    @Test("a fault that cannot be fired is an error, not a nil value")
    func faultErrors() throws {
        let stale = ManagedObjectContext(store: store)
        let ids = try stale.fetchObjectIDs(FetchRequest(entityName: "Person", format: "name == 'Alice'"))
        let alice = try stale.object(for: try #require(ids.first))
        let writer = ManagedObjectContext(store: store)
        try writer.delete(try #require(try writer.fetch(FetchRequest(entityName: "Person", format: "name == 'Alice'")).first))
        try writer.save()
        let predicate = try ObjectPredicate(format: "name == 'Alice' OR name == nil")
        #expect(throws: StoreError.self) { try predicate.evaluate(with: alice) }
        #expect(throws: StoreError.self) { try alice.predicateValue(forKeyPath: "address.city") }
    }

    @Test("to-one chains keep nil semantics through LEFT JOINs")
    func toOneNil() throws {
        #expect(try names("address.city == nil") == ["dave"])
        #expect(try names("address == nil") == ["dave"])
        #expect(try names("address.city != 'Paris'") == ["dave", "bob", "Éve"])
        #expect(try names("address.person.children.@count == 0") == ["bob", "Éve"])
    }

    @Test("to-many: ANY, ALL, NONE, @count, @max, SUBQUERY, CONTAINS")
    func toMany() throws {
        #expect(try names("ANY children.age > 10") == ["Alice"])
        #expect(try names("ALL children.age < 10") == ["dave", "nil", "bob", "Éve", "Carol"])
        #expect(try names("NONE children.name BEGINSWITH 'C'") == ["dave", "nil", "bob", "Éve", "Carol"])
        #expect(try names("children.@count >= 1") == ["nil", "Alice", "Carol"])
        #expect(try names("children.@max.age > 4") == ["Alice"])
        #expect(try names("children.@min.age == nil") == ["dave", "bob", "Éve"])
        #expect(try names("children.@sum.age == 17") == ["Alice"])
        #expect(try names("SUBQUERY(children, $c, $c.age < 4).@count == 1") == ["nil", "Carol"])
        #expect(try names("children.name CONTAINS 'Dan'") == ["Carol"])
        #expect(try names("'Eve' IN children.name") == ["nil"])
        #expect(try names("children[SIZE] == 2") == ["Alice"])
    }
}

@Suite("Large IN lists")
struct LargeINListTests {
    @Test("an IN list longer than SQLite's parameter limit is matched in memory")
    func hugeList() throws {
        let (store, context) = try FetchFixtures.sampleStore()
        let ages = (0..<20_000).map { Int64($0 * 5) }
        let request = try FetchRequest(entityName: "Person", format: "age IN %@", ages)
        #expect(try store.sql(for: request).inMemoryPredicate != nil)
        #expect(try FetchFixtures.names(context.fetch(request)).sorted() == ["Alice", "bob", "Éve"])
        let small = try FetchRequest(entityName: "Person", format: "age IN %@", Array(ages.prefix(9)))
        #expect(try store.sql(for: small).inMemoryPredicate == nil)
    }
}
