import Foundation
import Testing

@testable import GraphStore

@Suite("Fetch requests: order, window, batches, counts, dictionaries")
struct FetchRequestTests {
    let store: PersistentStore
    let context: ManagedObjectContext

    init() throws {
        (store, context) = try FetchFixtures.sampleStore()
    }

    func request(_ format: String? = nil, sort: [SortKey] = [], entity: String = "Person") throws -> FetchRequest<ManagedObject> {
        FetchRequest(entityName: entity, predicate: try format.map { try ObjectPredicate(format: $0) }, sortKeys: sort)
    }

    @Test("sort ascending, descending, case-insensitive, through a to-one; nil first")
    func sorting() throws {
        #expect(try FetchFixtures.names(context.fetch(request(sort: [SortKey("name")]))) == ["nil", "Alice", "Carol", "bob", "dave", "Éve"])
        #expect(try FetchFixtures.names(context.fetch(request(sort: [SortKey("name", ascending: false)]))) == ["Éve", "dave", "bob", "Carol", "Alice", "nil"])
        #expect(try FetchFixtures.names(context.fetch(request(sort: [SortKey("name", caseInsensitive: true)]))) == ["nil", "Alice", "bob", "Carol", "dave", "Éve"])
        let byCity = try request(sort: [SortKey("address.city"), SortKey("age", ascending: false)])
        #expect(try FetchFixtures.names(context.fetch(byCity)) == ["dave", "Carol", "Alice", "nil", "Éve", "bob"])
        #expect(try store.sql(for: byCity).sql.contains("LEFT JOIN ZADDRESS t1 ON t1.Z_PK = t0.ZADDRESS"))
    }

    @Test("limit and offset, in SQL")
    func window() throws {
        var paged = try request("age != nil", sort: [SortKey("age"), SortKey("name")])
        paged.fetchOffset = 1
        paged.fetchLimit = 3
        #expect(try FetchFixtures.names(context.fetch(paged)) == ["bob", "Éve", "Alice"])
        #expect(try store.sql(for: paged).sql.hasSuffix("ORDER BY t0.ZAGE, t0.ZNAME, t0.Z_PK LIMIT ? OFFSET ?"))
        paged.fetchLimit = 0
        #expect(try context.fetch(paged).isEmpty)
    }

    @Test("a window with an in-memory part is applied after it")
    func windowAfterResidual() throws {
        var paged = try request("name.length > 3", sort: [SortKey("name")])
        paged.fetchLimit = 2
        paged.fetchOffset = 1
        #expect(try store.sql(for: paged).inMemoryPredicate?.predicateFormat == "name.length > 3")
        #expect(try FetchFixtures.names(context.fetch(paged)) == ["Carol", "dave"])
        #expect(try context.count(for: paged) == 2)
    }

    @Test("sub-entities: included by default, excluded on request with a Z_ENT filter")
    func subentities() throws {
        var people = try request("age < 20")
        #expect(try context.fetch(people).map(\.entity.name) == ["Employee"])
        people.includesSubentities = false
        #expect(try context.fetch(people).isEmpty)
        #expect(try store.sql(for: people).sql.contains("t0.Z_ENT IN (?)"))
        #expect(try !store.sql(for: request()).sql.contains("Z_ENT IN"))
        #expect(try context.fetch(try request(entity: "Employee")).count == 1)
    }

    @Test("batches: keys first, rows a batch at a time")
    func batches() throws {
        var batched = try request(sort: [SortKey("name")])
        batched.fetchBatchSize = 2
        #expect(try store.sql(for: batched).sql.hasPrefix("SELECT t0.Z_PK, t0.Z_ENT, t0.ZNAME FROM"))
        let fresh = ManagedObjectContext(store: store)
        let results = try fresh.fetch(batched)
        #expect(results.count == 6)
        #expect(fresh.registeredObjects.isEmpty)
        #expect(try results[3].get("name", as: String.self) == "bob")
        #expect(fresh.registeredObjects.count == 2)
        #expect(fresh.registeredObjects.allSatisfy { $0.hasData })
        #expect(try FetchFixtures.names(results) == ["nil", "Alice", "Carol", "bob", "dave", "Éve"])
        #expect(fresh.registeredObjects.count == 6)
        #expect(results[1] === results[1])
    }

    @Test("count: SELECT COUNT(*), window applied, no objects made")
    func counting() throws {
        let fresh = ManagedObjectContext(store: store)
        let paris = try request("address.city == 'Paris'")
        #expect(try fresh.count(for: paris) == 3)
        // Person has a sub-entity: the count keeps the rows of the family's entities, the
        // objects a fetch (which reads the whole table) makes.
        #expect(
            try store.sql(for: paris, resultType: .count).sql
                == "SELECT COUNT(*) FROM ZPERSON t0 LEFT JOIN ZADDRESS t1 ON t1.Z_PK = t0.ZADDRESS WHERE t0.Z_ENT IN (?, ?) AND t1.ZCITY = ?")
        var window = paris
        window.fetchOffset = 1
        window.fetchLimit = 1
        #expect(try fresh.count(for: window) == 1)
        #expect(fresh.registeredObjects.isEmpty)
    }

    @Test("object IDs without reading rows")
    func objectIDs() throws {
        let fresh = ManagedObjectContext(store: store)
        let ids = try fresh.fetchObjectIDs(try request("ANY children.age > 4", sort: [SortKey("name")]))
        #expect(ids.map(\.entityName) == ["Person"])
        #expect(fresh.registeredObjects.isEmpty)
    }

    @Test("dictionaries: chosen properties, to-one as IDs, nil left out, distinct")
    func dictionaries() throws {
        var cities = try request(sort: [SortKey("address.city")])
        cities.propertiesToFetch = ["address.city"]
        cities.returnsDistinctResults = true
        let rows = try context.fetchDictionaries(cities)
        #expect(rows.map { $0["address.city"]?.description ?? "nil" } == ["nil", "Paris", "Zürich", "berlin"])
        #expect(try store.sql(for: cities, resultType: .dictionary).sql.hasPrefix("SELECT DISTINCT t1.ZCITY FROM ZPERSON t0 LEFT JOIN"))
        var pairs = try request("name == 'Alice'")
        pairs.propertiesToFetch = ["name", "age", "address"]
        let alice = try #require(try context.fetchDictionaries(pairs).first)
        #expect(alice["name"] == .attribute(.string("Alice")))
        #expect(alice["age"] == .attribute(.integer(30)))
        guard case .objectID(let address)? = alice["address"] else {
            Issue.record("address should be an object ID")
            return
        }
        #expect(address.entityName == "Address")
        var all = try request("name == 'dave'")
        all.propertiesToFetch = []
        #expect(try context.fetchDictionaries(all) == [["name": .attribute(.string("dave"))]])
    }

    @Test("dictionaries with an in-memory part, distinct and windowed")
    func dictionariesInMemory() throws {
        var names = try request("name.length >= 3", sort: [SortKey("age")])
        names.propertiesToFetch = ["age"]
        names.returnsDistinctResults = true
        names.fetchLimit = 2
        #expect(try context.fetchDictionaries(names).map { $0["age"]?.description ?? "nil" } == ["nil", "25"])
    }

    @Test("bad requests are typed errors that name the key")
    func errors() throws {
        #expect(throws: FetchError.unknownKeyPath(entity: "Person", keyPath: "adress.city", key: "adress")) {
            try context.fetch(try request("adress.city == 'Paris'"))
        }
        #expect(throws: FetchError.unknownKeyPath(entity: "Address", keyPath: "address.town", key: "town")) {
            try context.fetch(try request("address.town == 'Paris'"))
        }
        #expect(throws: FetchError.self) { try context.fetch(try request(sort: [SortKey("children")])) }
        #expect(throws: FetchError.self) { try context.fetch(try request(sort: [SortKey("address")])) }
        var negative = try request()
        negative.fetchLimit = -1
        #expect(throws: FetchError.invalidRequest("the fetch limit -1 is negative")) { try context.fetch(negative) }
        #expect(throws: StoreError.unknownEntity("Nobody")) { try context.fetch(FetchRequest(entityName: "Nobody")) }
    }

    @Test("enumerate lets go of objects nobody holds, batch by batch")
    func enumerateReleases() throws {
        let fresh = ManagedObjectContext(store: store)
        var batched = try request(sort: [SortKey("name")])
        batched.fetchBatchSize = 2
        var kept: ManagedObject?
        var seen: [String] = []
        try fresh.enumerate(batched) { person in
            seen.append(try person.get("name", as: String.self) ?? "nil")
            if seen.count == 2 { kept = person }
        }
        #expect(seen == ["nil", "Alice", "Carol", "bob", "dave", "Éve"])
        #expect(fresh.registeredObjects.count == 1)
        let again = try #require(try fresh.fetch(try request("name == 'Alice'")).first)
        #expect(again === kept)
    }

    @Test("managed objects and object IDs as constants")
    func objectConstants() throws {
        let alice = try #require(try context.fetch(try request("name == 'Alice'")).first)
        let address = try #require(try alice.object(forKey: "address"))
        let sameAddress = try FetchRequest(entityName: "Person", format: "address == %@", address)
        #expect(try FetchFixtures.names(context.fetch(sameAddress)) == ["Alice"])
        #expect(try store.sql(for: sameAddress).sql.hasSuffix("WHERE t0.ZADDRESS = ?"))
        let byIDs = try FetchRequest(entityName: "Person", format: "SELF IN %@ OR SELF == %@", [alice.objectID], alice)
        #expect(try context.count(for: byIDs) == 1)
        let children = try alice.objects(forKey: "children")
        let parents = try FetchRequest(entityName: "Person", format: "children CONTAINS %@", children[0])
        #expect(try FetchFixtures.names(context.fetch(parents)) == ["Alice"])
    }
}
