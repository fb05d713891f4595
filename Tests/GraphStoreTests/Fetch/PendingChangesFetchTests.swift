import Foundation
import Testing

@testable import GraphStore

@Suite("Fetches see unsaved changes")
struct PendingChangesFetchTests {
    let store: PersistentStore
    let context: ManagedObjectContext

    init() throws {
        (store, context) = try FetchFixtures.sampleStore()
    }

    func people(_ format: String, sort: [SortKey] = [SortKey("name")], limit: Int? = nil, offset: Int = 0) throws -> FetchRequest<ManagedObject> {
        var request = FetchRequest(entityName: "Person", predicate: try ObjectPredicate(format: format), sortKeys: sort)
        request.fetchLimit = limit
        request.fetchOffset = offset
        return request
    }

    func person(_ name: String) throws -> ManagedObject {
        try #require(try context.fetch(try people("name == %@".replacingOccurrences(of: "%@", with: "'\(name)'"))).first)
    }

    @Test("inserted objects that match are included, in sort order")
    func inserted() throws {
        let zoe = try context.insert("Person")
        try zoe.set("name", "Bea")
        try zoe.set("age", Int64(33))
        let unrelated = try context.insert("Person")
        try unrelated.set("name", "Abe")
        try unrelated.set("age", Int64(3))
        let adults = try people("age > 20")
        #expect(try FetchFixtures.names(context.fetch(adults)) == ["Alice", "Bea", "Carol", "bob", "Éve"])
        #expect(try context.count(for: adults) == 5)
        #expect(try context.fetchObjectIDs(adults).contains(zoe.objectID))
        #expect(try FetchFixtures.names(context.fetch(try people("age > 20", limit: 2, offset: 1))) == ["Bea", "Carol"])
        var stored = adults
        stored.includesPendingChanges = false
        #expect(try FetchFixtures.names(context.fetch(stored)) == ["Alice", "Carol", "bob", "Éve"])
    }

    @Test("deleted objects are left out")
    func deleted() throws {
        try context.delete(try person("Carol"))
        let adults = try people("age > 20")
        #expect(try FetchFixtures.names(context.fetch(adults)) == ["Alice", "bob", "Éve"])
        #expect(try context.count(for: adults) == 3)
        #expect(try FetchFixtures.names(context.fetch(try people("age > 20", limit: 2))) == ["Alice", "bob"])
    }

    @Test("changed objects are judged by their current values and sorted by them")
    func updated() throws {
        let bob = try person("bob")
        try bob.set("age", Int64(10))
        let dave = try person("dave")
        try dave.set("age", Int64(50))
        try dave.set("name", "Aaron")
        let adults = try people("age > 20")
        #expect(try FetchFixtures.names(context.fetch(adults)) == ["Aaron", "Alice", "Carol", "Éve"])
        #expect(try context.count(for: adults) == 4)
        #expect(try FetchFixtures.names(context.fetch(try people("age > 20", sort: [SortKey("age", ascending: false)], limit: 2))) == ["Aaron", "Carol"])
        #expect(try FetchFixtures.names(context.fetch(try people("age > 20", sort: []))).sorted() == ["Aaron", "Alice", "Carol", "Éve"])
    }

    @Test("without sort keys, a changed object keeps its stored place")
    func updatedUnsortedKeepsPlace() throws {
        let before = try FetchFixtures.names(context.fetch(try people("TRUEPREDICATE", sort: [])))
        try person("bob").set("age", Int64(26))
        #expect(try FetchFixtures.names(context.fetch(try people("TRUEPREDICATE", sort: []))) == before)
    }

    @Test("changed relationships count too")
    func updatedRelationship() throws {
        let alice = try person("Alice")
        let bob = try person("bob")
        let paris = try context.insert("Address")
        try paris.set("city", "Paris")
        try bob.setObject(paris, forKey: "address")
        #expect(try FetchFixtures.names(context.fetch(try people("address.city == 'Paris'"))) == ["nil", "Alice", "Carol", "bob"])
        let child = try #require(try alice.objects(forKey: "children").first)
        try alice.remove(child, fromKey: "children")
        #expect(try FetchFixtures.names(context.fetch(try people("children.@count == 1"))) == ["nil", "Alice", "Carol"])
    }

    @Test("a limit, offset or batch size as large as Int.max is a window to the end, not an overflow")
    func windowsAtTheLargestCount() throws {
        // Unsaved changes make the fetch ask SQL for limit + offset + the changed rows.
        try person("bob").set("age", Int64(26))
        let all = try FetchFixtures.names(context.fetch(try people("TRUEPREDICATE")))
        #expect(try FetchFixtures.names(context.fetch(try people("TRUEPREDICATE", limit: Int.max))) == all)
        #expect(try FetchFixtures.names(context.fetch(try people("TRUEPREDICATE", limit: Int.max, offset: 2))) == Array(all.dropFirst(2)))
        #expect(try context.fetch(try people("TRUEPREDICATE", limit: 1, offset: Int.max)).isEmpty)
        #expect(try context.fetch(try people("TRUEPREDICATE", limit: Int.max, offset: Int.max)).isEmpty)
        #expect(try context.count(for: try people("TRUEPREDICATE", limit: Int.max, offset: 1)) == all.count - 1)
        var batched = try people("TRUEPREDICATE", limit: Int.max)
        batched.fetchBatchSize = Int.max
        let results = try context.fetch(batched)
        #expect(try FetchFixtures.names(results) == all)
        #expect(try results[results.count - 1].get("name", as: String.self) == all.last)
    }
}
