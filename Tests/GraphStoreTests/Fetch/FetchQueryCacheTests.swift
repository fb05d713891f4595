import Foundation
import Testing

@testable import GraphStore

/// A fetch request keeps the SQL it compiled to; these check that a kept query never
/// answers for a request that changed, another store, or a predicate that compiles
/// differently from one run to the next.
@Suite("Compiled queries kept with a fetch request")
struct FetchQueryCacheTests {
    private func names(_ objects: FetchedObjects) throws -> [String] {
        try objects.map { try $0.get("name", as: String.self) ?? "" }.sorted()
    }

    @Test("repeating a request reuses its query; changing the request compiles afresh")
    func reuseAndChange() throws {
        let (store, context) = try FetchFixtures.sampleStore()
        var request = try FetchRequest(entityName: "Person", format: "age > %@", 20)
        let first = try names(context.fetch(request))
        #expect(try names(context.fetch(request)) == first)
        #expect(request.queryCache.query(.rows, in: store) != nil)
        let copy = request
        request.predicate = try ObjectPredicate(format: "age > 26")
        #expect(request.queryCache.query(.rows, in: store) == nil)
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
        #expect(request.queryCache.query(.rows, in: other) == nil)
        #expect(try otherContext.fetch(request).count == 1)
        #expect(try context.fetch(request).count == 4)
        _ = store
    }

    @Test("predicates with functions, variables or objects are compiled every time")
    func notKept() throws {
        let (store, context) = try FetchFixtures.sampleStore()
        for format in ["born < now()", "age > $LIMIT", "FUNCTION(name, 'uppercaseString') == 'ALICE'"] {
            #expect(try !ObjectPredicate(format: format).compilesStably, "\(format)")
        }
        #expect(try ObjectPredicate(format: "name BEGINSWITH[c] 'A' AND age IN {25, 30} AND NOT address.city == 'Paris' OR children.@count > 1").compilesStably)
        // An object as a constant: what it compiles to depends on the object's state.
        let alice = try #require(try context.fetch(FetchRequest(entityName: "Person", format: "name == 'Alice'")).first)
        let address = try context.insert("Address")
        try address.set("city", "Oslo")
        try alice.setObject(address, forKey: "address")
        try context.save()
        let request = try FetchRequest(entityName: "Person", format: "address == %@", address)
        #expect(try names(context.fetch(request)) == ["Alice"])
        #expect(request.queryCache.query(.rows, in: store) == nil)
        let now = try FetchRequest(entityName: "Person", format: "born < now()")
        _ = try context.fetch(now)
        #expect(now.queryCache.query(.rows, in: store) == nil)
    }
}
