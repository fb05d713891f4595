import Foundation
import Testing
@testable import GraphStore

/// The identity map against a dictionary doing the same inserts and removals: open
/// addressing with backward-shift removal must never lose or confuse an object.
@Suite struct ObjectRegistryTests {
    struct Key: Hashable {
        var number: Int
        var key: Int64
    }

    @Test func agreesWithADictionaryThroughGrowthAndRemovals() throws {
        let store = try PersistentStore.create(at: try Fixtures.newStorePath(), model: try Fixtures.bookStoreModel())
        let context = ManagedObjectContext(store: store)
        let mappings = try ["Book", "BookCategory", "Page"].map { name throws(StoreError) in try store.mapping(for: name) }
        var registry = ObjectRegistry()
        var expected: [Key: ManagedObject] = [:]
        var generator = SeededGenerator(state: 7)
        for step in 0..<20_000 {
            let mapping = mappings[Int.random(in: 0..<3, using: &generator)]
            // Few keys, so that runs of colliding buckets form and are shifted on removal.
            let key = Int64.random(in: 1...600, using: &generator)
            let id = ObjectID(mapping: mapping, storeUUID: store.metadata.uuid, primaryKey: key)
            if Bool.random(using: &generator) || step < 500 {
                let object = ManagedObject(objectID: id, context: context)
                registry.insert(object, for: id)
                expected[Key(number: mapping.number, key: key)] = object
            } else {
                let removed = registry.removeValue(forKey: id)
                #expect(removed === expected.removeValue(forKey: Key(number: mapping.number, key: key)))
            }
        }
        #expect(registry.count == expected.count)
        for (key, object) in expected {
            #expect(registry.object(number: key.number, key: key.key) === object)
        }
        var seen = 0
        registry.forEach { object in
            seen += 1
            #expect(expected[Key(number: object.objectID.mapping.number, key: object.objectID.primaryKey ?? 0)] === object)
        }
        #expect(seen == expected.count)
        // An ID of another store never finds an object, even with the same entity and key.
        if let (key, _) = expected.first, let mapping = mappings.first(where: { $0.number == key.number }) {
            #expect(registry[ObjectID(mapping: mapping, storeUUID: "another store", primaryKey: key.key)] == nil)
        }
    }
}
