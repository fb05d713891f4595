import Foundation
import Testing

@testable import GraphStore

/// A store keeps the SQL its fetches compiled to, by the request's fingerprint; these check
/// that a kept query never answers for a request that changed, another store, or a
/// predicate that compiles differently from one run to the next, that a fetch compiles its
/// SQL once, and that the SQL shown for a request is the statement the fetch runs.
@Suite("Compiled queries kept by the store")
struct QueryCacheTests {
    private func names(_ objects: FetchedObjects) throws -> [String] {
        try objects.map { try $0.get("name", as: String.self) ?? "" }.sorted()
    }

    @Test("repeating a request reuses its query; changing the request compiles afresh")
    func reuseAndChange() throws {
        let (store, context) = try FetchFixtures.sampleStore()
        var request = try FetchRequest(entityName: "Person", format: "age > %@", 20)
        let first = try names(context.fetch(request))
        #expect(try names(context.fetch(request)) == first)
        #expect(store.queryCache.contains(request.definition(.rows)))
        let copy = request
        request.predicate = try ObjectPredicate(format: "age > 26")
        #expect(!store.queryCache.contains(request.definition(.rows)))
        #expect(try names(context.fetch(request)) == ["Alice", "Carol"])
        // The copy made before keeps its own query and answer.
        #expect(try names(context.fetch(copy)) == first)
        request.sortKeys = [SortKey("name")]
        #expect(try context.fetch(request).compactMap { try $0.get("name", as: String.self) } == ["Alice", "Carol"])
        request.entityName = "Employee"
        #expect(try context.fetch(request).isEmpty)
        request.includesSubentities = false
        request.entityName = "Person"
        request.predicate = try ObjectPredicate(format: "age < 20")
        #expect(try context.fetch(request).isEmpty)
    }

    @Test("a query kept for one store is not used for another")
    func otherStore() throws {
        let (store, context) = try FetchFixtures.sampleStore()
        let request = try FetchRequest(entityName: "Person", format: "age > %@", 20)
        _ = try context.fetch(request)
        let (other, otherContext) = try FetchFixtures.peopleStore()
        try otherContext.insert("Person").set("name", "Zed")
        try otherContext.insert("Person").set("age", Int64(99))
        try otherContext.save()
        #expect(!other.queryCache.contains(request.definition(.rows)))
        #expect(try otherContext.fetch(request).count == 1)
        #expect(try context.fetch(request).count == 4)
        _ = store
    }

    @Test("predicates with functions, variables or objects are compiled every time")
    func notKept() throws {
        let (store, context) = try FetchFixtures.sampleStore()
        for format in ["born < now()", "age > $LIMIT", "FUNCTION(name, 'uppercaseString') == 'ALICE'"] {
            #expect(try FetchRequest(entityName: "Person", format: format).definition(.rows).fingerprint == nil, "\(format)")
        }
        let stable = "name BEGINSWITH[c] 'A' AND age IN {25, 30} AND NOT address.city == 'Paris' OR children.@count > 1"
        #expect(try FetchRequest(entityName: "Person", format: stable).definition(.rows).fingerprint != nil)
        // An object as a constant: what it compiles to depends on the object's state.
        let alice = try #require(try context.fetch(FetchRequest(entityName: "Person", format: "name == 'Alice'")).first)
        let address = try context.insert("Address")
        try address.set("city", "Oslo")
        try alice.setObject(address, forKey: "address")
        try context.save()
        let request = try FetchRequest(entityName: "Person", format: "address == %@", address)
        #expect(try names(context.fetch(request)) == ["Alice"])
        #expect(!store.queryCache.contains(request.definition(.rows)))
        let now = try FetchRequest(entityName: "Person", format: "born < now()")
        _ = try context.fetch(now)
        #expect(!store.queryCache.contains(now.definition(.rows)))
    }

    @Test("predicates that differ only in a constant's type or value have different fingerprints")
    func fingerprintsTellConstantsApart() throws {
        let formats = ["age == 30", "age == 30.0", "age == '30'", "name == 'Al'", "name == 'Al '", "age IN {30, 31}", "age IN {30}", "age == nil"]
        let fingerprints = try formats.map { try #require(try FetchRequest(entityName: "Person", format: $0).definition(.rows).fingerprint) }
        #expect(Set(fingerprints).count == formats.count)
        // The same predicate parsed twice, and the same request for another kind of row.
        let again = try FetchRequest(entityName: "Person", format: "age == 30")
        #expect(again.definition(.rows).fingerprint == fingerprints[0])
        #expect(again.definition(.keys).fingerprint != fingerprints[0])
    }

    @Test("a fetch compiles its SQL once, also after its SQL was shown, and not again when repeated")
    func compilesOnce() throws {
        let (store, context) = try FetchFixtures.sampleStore()
        var request = try FetchRequest(entityName: "Person", format: "age > %@ AND name BEGINSWITH 'A'", 20)
        request.sortKeys = [SortKey("name")]
        let start = store.queryCache.compilations
        _ = try store.sql(for: request)
        #expect(store.queryCache.compilations == start + 1)
        #expect(try names(context.fetch(request)) == ["Alice"])
        #expect(store.queryCache.compilations == start + 1)
        _ = try context.fetch(request)
        _ = try context.count(for: request)
        #expect(store.queryCache.compilations == start + 2)
        // A batched fetch whose predicate is partly evaluated in memory reads rows: one
        // compilation, not one for keys and another for rows.
        var batched = try FetchRequest(entityName: "Person", format: "name BEGINSWITH 'A' AND name.length > 3")
        batched.fetchBatchSize = 2
        _ = try context.fetch(batched)
        #expect(store.queryCache.compilations == start + 3)
        // A count whose stored rows unsaved changes correct compiles once too.
        let carol = try #require(try context.fetch(FetchRequest(entityName: "Person", format: "name == 'Carol'")).first)
        try carol.set("age", Int64(99))
        let before = store.queryCache.compilations
        #expect(try context.count(for: FetchRequest(entityName: "Person", format: "age > 50")) == 1)
        #expect(store.queryCache.compilations == before + 1)
    }

    @Test("the SQL shown for a request is the statement its fetch runs")
    func shownIsRun() throws {
        let (store, context) = try FetchFixtures.sampleStore()
        var ran: [String] = []
        store.connection.traceStatements { ran.append($0) }
        defer { store.connection.traceStatements(nil) }
        var request = try FetchRequest(entityName: "Person", format: "age < %@", 40)
        request.sortKeys = [SortKey("name", caseInsensitive: true)]
        request.fetchLimit = 2
        for resultType in [FetchResultType.objects, .count] {
            let shown = try store.sql(for: request, resultType: resultType).sql
            ran = []
            if resultType == .count { _ = try context.count(for: request) } else { _ = try context.fetch(request) }
            #expect(ran == [shown])
        }
    }
}
