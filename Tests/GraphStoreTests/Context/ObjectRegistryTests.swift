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
        let registry = ObjectRegistry()
        var expected: [Key: ManagedObject] = [:]
        var generator = SeededGenerator(state: 7)
        for step in 0..<20_000 {
            let mapping = mappings[Int.random(in: 0..<3, using: &generator)]
            // Few keys, so that runs of colliding buckets form and are shifted on removal.
            let key = Int64.random(in: 1...600, using: &generator)
            let id = ObjectID(mapping: mapping, primaryKey: key)
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
        let another = try PersistentStore.create(at: try Fixtures.newStorePath(), model: try Fixtures.bookStoreModel())
        if let (key, _) = expected.first, let mapping = another.mapping(number: key.number) {
            #expect(mapping.storeUUID != store.uuid)
            #expect(registry[ObjectID(mapping: mapping, primaryKey: key.key)] == nil)
        }
    }

    /// The table owns one reference to each object: it keeps them alive, and lets go when
    /// an object is removed, replaced, found unreferenced, or the table itself goes.
    @Test func holdsOneReferencePerObject() throws {
        let store = try PersistentStore.create(at: try Fixtures.newStorePath(), model: try Fixtures.bookStoreModel())
        let context = ManagedObjectContext(store: store)
        let mapping = try store.mapping(for: "Book")
        func id(_ key: Int64) -> ObjectID { ObjectID(mapping: mapping, primaryKey: key) }
        var registry: ObjectRegistry? = ObjectRegistry()
        weak var kept: ManagedObject?
        weak var replaced: ManagedObject?
        weak var removed: ManagedObject?
        weak var unreferenced: ManagedObject?
        var held: ManagedObject? = ManagedObject(objectID: id(4), context: context)
        do {
            let first = ManagedObject(objectID: id(1), context: context)
            let second = ManagedObject(objectID: id(1), context: context)
            let third = ManagedObject(objectID: id(2), context: context)
            let fourth = ManagedObject(objectID: id(3), context: context)
            (replaced, kept, removed, unreferenced) = (first, second, third, fourth)
            for object in [first, second, third, fourth] { registry?.insert(object, for: object.objectID) }
            if let held { registry?.insert(held, for: held.objectID) }
            // Growing past 16 buckets moves the entries with their references.
            for key in Int64(10)..<Int64(200) { registry?.insert(ManagedObject(objectID: id(key), context: context), for: id(key)) }
        }
        #expect(replaced == nil, "an object replaced under its key is released")
        #expect(kept != nil && removed != nil && unreferenced != nil)
        #expect(registry?.removeValue(forKey: id(2)) != nil)
        #expect(removed == nil, "a removed object is handed back, then released")
        #expect(registry?.removeIfUnreferenced(number: mapping.number, key: 4) == nil, "another holder keeps it registered")
        #expect(registry?.object(number: mapping.number, key: 4) === held)
        #expect(registry?.removeIfUnreferenced(number: mapping.number, key: 3) != nil)
        #expect(unreferenced == nil && registry?.object(number: mapping.number, key: 3) == nil)
        #expect(registry?.count == 192)
        weak let last = registry?.object(number: mapping.number, key: 199)
        registry = nil
        #expect(kept == nil && last == nil, "the table releases what it holds when it goes")
        #expect(held != nil)
        held = nil
    }
}
