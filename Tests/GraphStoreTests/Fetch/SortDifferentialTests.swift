import Foundation
import Testing

@testable import GraphStore

/// Sorted, windowed fetches over generated data, with and without unsaved changes, against
/// the same objects sorted in memory: SQL's ORDER BY and the merge of unsaved objects must
/// agree with the in-memory order (nil first, text by code point, case folding, ties by key).
@Suite("Sort differential: SQL order and the merge of unsaved changes")
struct SortDifferentialTests {
    static let orders: [[SortKey]] = [
        [SortKey("name")], [SortKey("name", ascending: false)], [SortKey("firstName", caseInsensitive: true)],
        [SortKey("address.city"), SortKey("age", ascending: false)], [SortKey("score"), SortKey("name", caseInsensitive: true)],
        [SortKey("born", ascending: false), SortKey("active")],
    ]

    /// The expected result: every live object of the request's entities that matches,
    /// sorted in memory by its current values, then windowed.
    func expected(_ request: FetchRequest<ManagedObject>, objects: [ManagedObject], store: PersistentStore) throws -> [ObjectID] {
        let sorts = try store.fetchQuery(for: request, selection: .keys).sorts
        var candidates = try objects.filter { try request.predicate?.evaluate(with: $0) ?? true }.enumerated().map { index, object in
            FetchCandidate(id: object.objectID, object: object, sortValues: try object.sortValues(for: sorts), insertionIndex: index)
        }
        candidates.sort { $0.precedes($1, in: sorts) }
        let window = candidates.dropFirst(request.fetchOffset)
        return Array(request.fetchLimit.map { window.prefix($0) } ?? window).map(\.id)
    }

    @Test("stored objects: SQL's order is the in-memory order")
    func storedOrder() throws {
        let (store, context) = try FetchFixtures.peopleStore()
        try GeneratedGraph.populate(context, people: 150, seed: 11)
        let reader = ManagedObjectContext(store: store)
        let everyone = try reader.fetch("Person")
        for order in Self.orders {
            var request = try FetchRequest(entityName: "Person", format: "age > 10 OR name BEGINSWITH[c] 'a'")
            request.sortKeys = order
            #expect(try reader.fetch(request).map(\.objectID) == expected(request, objects: everyone, store: store), "\(order)")
            request.fetchOffset = 7
            request.fetchLimit = 20
            #expect(try reader.fetchObjectIDs(request) == expected(request, objects: everyone, store: store), "\(order) windowed")
        }
    }

    @Test("unsaved inserts, changes and deletes are merged where they sort")
    func pendingMerge() throws {
        let (store, context) = try FetchFixtures.peopleStore()
        try GeneratedGraph.populate(context, people: 120, seed: 12)
        let dirty = ManagedObjectContext(store: store)
        var rng = SeededGenerator(state: 99)
        var live = try dirty.fetch("Person")
        for object in live.shuffled(using: &rng).prefix(15) {
            try object.set("name", GeneratedGraph.names.randomElement(using: &rng))
            try object.set("age", Int64.random(in: 0...60, using: &rng))
        }
        let doomed = live.shuffled(using: &rng).prefix(8)
        for object in doomed { try dirty.delete(object) }
        live.removeAll { $0.isDeleted }
        for _ in 0..<10 {
            let person = try dirty.insert(Bool.random(using: &rng) ? "Person" : "Employee")
            try person.set("name", GeneratedGraph.names.randomElement(using: &rng))
            try person.set("age", Int64.random(in: 0...60, using: &rng))
            try person.set("score", Double.random(in: -5...50, using: &rng))
            live.append(person)
        }
        for order in Self.orders {
            for (offset, limit) in [(0, nil), (3, 12), (0, 1), (40, 30)] as [(Int, Int?)] {
                var request = try FetchRequest(entityName: "Person", format: "age > 15 OR name ==[c] 'bob'")
                request.sortKeys = order
                request.fetchOffset = offset
                request.fetchLimit = limit
                let found = try dirty.fetch(request).map(\.objectID)
                #expect(found == (try expected(request, objects: live, store: store)), "\(order) \(offset) \(String(describing: limit))")
                #expect(try dirty.count(for: request) == found.count)
            }
        }
    }
}
