import Foundation
import Testing
import TestScratch

@testable import GraphStore

/// Core Data's dictionary fetches with aggregates: `propertiesToGroupBy`,
/// `ExpressionDescription`, `havingPredicate`; one SQL query, equal to the same computed in
/// memory.
@Suite("Dictionary fetches: groups, aggregates, having")
struct DictionaryFetchTests {
    static func expression(_ name: String, _ function: ExpressionDescription.Function, _ keyPath: String? = nil) -> FetchProperty {
        .expression(ExpressionDescription(name: name, function: function, keyPath: keyPath))
    }

    func booksPerCategory(_ store: PersistentStore) -> FetchRequest<ManagedObject> {
        var request = FetchRequest(entityName: "Book", sortKeys: [SortKey("category.name")])
        request.resultType = .dictionary
        request.propertiesToFetch = ["category.name", Self.expression("books", .count), Self.expression("averagePrice", .average, "price")]
        request.propertiesToGroupBy = ["category.name"]
        return request
    }

    @Test("groups windowed in memory by a limit as large as Int.max: the groups after the offset, no overflow")
    func groupWindowAtTheLargestCount() throws {
        let store = try PersistentStore(path: try BrokenStores.copy(Fixtures.exampleStore))
        let context = ManagedObjectContext(store: store)
        var request = booksPerCategory(store)
        request.fetchLimit = Int.max
        request.fetchOffset = 1
        #expect(try context.groupedInMemory(request).map { $0["category.name"]?.description } == ["Fiction"])
        #expect(try context.fetchDictionaries(request).map { $0["category.name"]?.description } == ["Fiction"])
    }

    @Test("books per category and their average price, on the example store, in one GROUP BY query")
    func exampleStore() throws {
        let store = try PersistentStore(path: try BrokenStores.copy(Fixtures.exampleStore))
        let context = ManagedObjectContext(store: store)
        var request = booksPerCategory(store)
        let rows = try context.fetchDictionaries(request)
        #expect(rows == [
            ["category.name": .attribute(.string("Biography")), "books": .attribute(.integer(1)), "averagePrice": .attribute(.double(10))],
            ["category.name": .attribute(.string("Fiction")), "books": .attribute(.integer(2)), "averagePrice": .attribute(.double(12.5))],
        ])
        let sql = try store.sql(for: request).sql
        #expect(sql == "SELECT t1.ZNAME, COUNT(*), AVG(t0.ZPRICE) FROM ZBOOK t0 LEFT JOIN ZBOOKCATEGORY t1 ON t1.Z_PK = t0.ZCATEGORY GROUP BY t1.ZNAME ORDER BY t1.ZNAME")
        #expect(context.registeredObjects.isEmpty)
        #expect(try context.groupedInMemory(request) == rows)

        request.havingPredicate = try ObjectPredicate(format: "books > 1")
        #expect(try context.fetchDictionaries(request).map { $0["category.name"]?.description } == ["Fiction"])
        request.havingPredicate = try ObjectPredicate(format: "category.name BEGINSWITH 'B'")
        #expect(try context.fetchDictionaries(request).map { $0["books"]?.description } == ["1"])

        request.havingPredicate = nil
        request.sortKeys = [SortKey("books", ascending: false)]
        request.fetchLimit = 1
        #expect(try context.fetchDictionaries(request).map { $0["category.name"]?.description } == ["Fiction"])
        #expect(try store.sql(for: request).sql.hasSuffix("ORDER BY COUNT(*) DESC LIMIT ? OFFSET ?"))
    }

    @Test("aggregates without groups: one dictionary, even over no rows")
    func wholeTable() throws {
        let (store, context) = try FetchFixtures.sampleStore()
        var request = FetchRequest(entityName: "Person")
        request.propertiesToFetch = [
            Self.expression("n", .count), Self.expression("aged", .count, "age"), Self.expression("total", .sum, "age"),
            Self.expression("youngest", .min, "age"), Self.expression("last", .max, "name"), Self.expression("mean", .average, "age"),
        ]
        let rows = try context.fetchDictionaries(request)
        #expect(rows == [[
            "n": .attribute(.integer(6)), "aged": .attribute(.integer(5)), "total": .attribute(.integer(140)),
            "youngest": .attribute(.integer(19)), "last": .attribute(.string("Éve")), "mean": .attribute(.double(28)),
        ]])
        #expect(try context.groupedInMemory(request) == rows)
        request.predicate = try ObjectPredicate(format: "age > 100")
        #expect(try context.fetchDictionaries(request) == [["n": .attribute(.integer(0)), "aged": .attribute(.integer(0))]])
        #expect(try context.groupedInMemory(request) == [["n": .attribute(.integer(0)), "aged": .attribute(.integer(0))]])
        #expect(try store.sql(for: request, resultType: .dictionary).sql.hasPrefix("SELECT COUNT(*), COUNT(t0.ZAGE), SUM(t0.ZAGE), MIN(t0.ZAGE), MAX(t0.ZNAME), AVG(t0.ZAGE) FROM ZPERSON t0"))
    }

    @Test("a predicate with an in-memory part groups the matching objects in memory")
    func residual() throws {
        let (store, context) = try FetchFixtures.sampleStore()
        var request = FetchRequest(entityName: "Person", predicate: try ObjectPredicate(format: "name.length >= 3"), sortKeys: [SortKey("n", ascending: false), SortKey("address.city")])
        request.propertiesToFetch = ["address.city", Self.expression("n", .count), Self.expression("oldest", .max, "age")]
        request.propertiesToGroupBy = ["address.city"]
        #expect(try store.sql(for: request, resultType: .dictionary).inMemoryPredicate != nil)
        let rows = try context.fetchDictionaries(request)
        #expect(rows == [
            ["address.city": .attribute(.string("Paris")), "n": .attribute(.integer(2)), "oldest": .attribute(.integer(41))],
            ["n": .attribute(.integer(1))],
            ["address.city": .attribute(.string("Zürich")), "n": .attribute(.integer(1)), "oldest": .attribute(.integer(25))],
            ["address.city": .attribute(.string("berlin")), "n": .attribute(.integer(1)), "oldest": .attribute(.integer(25))],
        ])
    }

    @Test("bad aggregates and ungrouped key paths are typed errors naming the property")
    func errors() throws {
        let (_, context) = try FetchFixtures.sampleStore()
        var request = FetchRequest(entityName: "Person")
        request.propertiesToFetch = ["name", Self.expression("n", .count)]
        #expect(throws: FetchError.invalidProperty(entity: "Person", keyPath: "name", reason: "with aggregates or groups, a fetched key path must be in propertiesToGroupBy")) {
            try context.fetchDictionaries(request)
        }
        request.propertiesToFetch = [Self.expression("total", .sum, "name")]
        #expect(throws: FetchError.invalidProperty(entity: "Person", keyPath: "total", reason: "sum: needs a number, and name is String")) {
            try context.fetchDictionaries(request)
        }
        request.propertiesToFetch = [Self.expression("total", .average)]
        #expect(throws: FetchError.invalidProperty(entity: "Person", keyPath: "total", reason: "average: needs a key path")) {
            try context.fetchDictionaries(request)
        }
        request.propertiesToFetch = [Self.expression("n", .count)]
        request.sortKeys = [SortKey("name")]
        #expect(throws: FetchError.invalidSortKey(entity: "Person", keyPath: "name", reason: "with aggregates or groups, sort by a key path of propertiesToGroupBy or an aggregate's name")) {
            try context.fetchDictionaries(request)
        }
        request.sortKeys = []
        request.propertiesToFetch = ["age", Self.expression("age", .max, "age")]
        request.propertiesToGroupBy = ["age"]
        #expect(throws: FetchError.invalidProperty(entity: "Person", keyPath: "age", reason: "two properties to fetch have this name")) {
            try context.fetchDictionaries(request)
        }
    }

    @Test("groups and aggregates on every corpus store equal the same computed in memory")
    func corpusStores() throws {
        var compared = 0
        guard try Self.forEachSmallEntity(of: "dictionary fetches on the corpus", { path, store, context, mapping in
            for request in Self.requests(for: mapping) {
                // A store whose rows cannot all be read (external data without its folder) is skipped.
                guard let sql = try? context.fetchDictionaries(request), let memory = try? context.groupedInMemory(request) else { continue }
                compared += 1
                if !Self.sameRows(sql, memory) {
                    Issue.record("\((path as NSString).lastPathComponent) \(mapping.name) \(request.propertiesToFetch) by \(request.propertiesToGroupBy): SQL \(sql.count) rows, memory \(memory.count)")
                }
            }
        }) else { return }
        print("dictionary fetches: \(compared) grouped requests compared on the corpus")
        #expect(compared > 100)
    }

    @Test("a to-one's value is the destination ID the object holds, also when no such row exists; nil values are left out")
    func toOneValuesAreTheObjectsOwn() throws {
        // Book 1 points at a category that is not there, book 2 at none.
        let store = try PersistentStore(path: try BrokenStores.changed(
            Fixtures.exampleStore, sql: "UPDATE ZBOOK SET ZCATEGORY = 999 WHERE Z_PK = 1; UPDATE ZBOOK SET ZCATEGORY = NULL, ZPRICE = NULL WHERE Z_PK = 2"))
        let context = ManagedObjectContext(store: store)
        var request = FetchRequest(entityName: "Book", sortKeys: [SortKey("title")])
        request.resultType = .dictionary
        request.propertiesToFetch = ["price", "category"]
        let rows = try context.fetchDictionaries(request)
        let objects = try ManagedObjectContext(store: store).fetch(FetchRequest(entityName: "Book", sortKeys: [SortKey("title")]))
        #expect(rows.count == 3 && objects.count == 3)
        for (row, object) in zip(rows, objects) {
            #expect(row["category"]?.objectID == (try object.objectID(forKey: "category")))
            #expect(row["price"]?.attributeValue == (try object.value(forKey: "price")))
        }
        #expect(rows.contains { $0["category"]?.objectID?.primaryKey == 999 })
        #expect(rows.contains { $0.isEmpty })
        #expect(try store.sql(for: request).sql.contains("JOIN") == false)
    }

    @Test("on every corpus store, an entity's dictionaries hold what its objects hold, sub-entities' to-ones included")
    func corpusDictionariesEqualObjects() throws {
        var compared = 0
        guard try Self.forEachSmallEntity(of: "dictionary fetches of whole rows on the corpus", { path, store, context, mapping in
            let request = FetchRequest(entityName: mapping.name)
            guard let dictionaries = try? context.fetchDictionaries(request),
                let objects = try? ManagedObjectContext(store: store).fetch(request) else { return }
            let keyPaths = mapping.attributes.filter { $0.column != nil }.map(\.attribute.name)
                + mapping.relationships.filter { if case .foreignKey = $0.storage { true } else { false } }.map(\.relationship.name)
            guard let expected = try? objects.map({ try ManagedObjectContext.values(of: $0, keyPaths) }) else { return }
            compared += 1
            if !Self.sameRows(dictionaries, expected.map(FetchedDictionary.init)) {
                Issue.record("\((path as NSString).lastPathComponent) \(mapping.name): dictionaries differ from the objects' values")
            }
        }) else { return }
        print("dictionary fetches: \(compared) entities' whole rows compared with their objects on the corpus")
        #expect(compared > 50)
    }

    /// Calls `body` with each entity of up to a few thousand rows (which keeps an in-memory
    /// side short) of every corpus store that opens; false when the corpus is absent (the
    /// test then says it skipped, or fails under GRAPHSTORE_REQUIRE_CORPUS=1).
    static func forEachSmallEntity(
        of purpose: String, _ body: (String, PersistentStore, ManagedObjectContext, EntityMapping) throws -> Void
    ) throws -> Bool {
        guard let corpus = try Fixtures.requireCorpus(purpose) else { return false }
        for path in ModelIOCorpus.stores(in: corpus) {
            guard let store = try? PersistentStore(path: path) else { continue }
            let context = ManagedObjectContext(store: store)
            for mapping in store.allMappings where (try? context.count(for: FetchRequest(entityName: mapping.name))).map({ $0 > 0 && $0 <= 3000 }) == true {
                try body(path, store, context, mapping)
            }
        }
        return true
    }

    /// For each of an entity's first attributes: grouped by it, count, min and max of the
    /// next, sum and average when numeric; grouped by each stored to-one and its first attribute.
    static func requests(for mapping: EntityMapping) -> [FetchRequest<ManagedObject>] {
        let skipped: [AttributeType] = [.binaryData, .transformable, .undefined, .uuid, .objectID, .composite]
        let attributes = mapping.attributes.filter { $0.column != nil }.map(\.attribute).filter { attribute in
            !skipped.contains(attribute.type)
        }
        var requests: [FetchRequest<ManagedObject>] = []
        for (index, attribute) in attributes.prefix(3).enumerated() {
            let other = attributes[(index + 1) % attributes.count]
            var request = FetchRequest(entityName: mapping.name)
            request.propertiesToFetch = [.keyPath(attribute.name), expression("n", .count), expression("c", .count, other.name),
                                         expression("lo", .min, other.name), expression("hi", .max, other.name)]
            if other.type.isNumeric {
                request.propertiesToFetch += [expression("s", .sum, other.name), expression("a", .average, other.name)]
            }
            request.propertiesToGroupBy = [attribute.name]
            requests.append(request)
        }
        for relationship in mapping.relationships where !relationship.relationship.isToMany {
            var request = FetchRequest(entityName: mapping.name)
            request.propertiesToFetch = [.keyPath(relationship.relationship.name), expression("n", .count)]
            request.propertiesToGroupBy = [relationship.relationship.name]
            requests.append(request)
        }
        return requests
    }

    /// The same dictionaries in any order; Doubles equal to a relative 1e-9 (SQLite sums
    /// with compensation, memory in plain order).
    static func sameRows(_ a: [FetchedDictionary], _ b: [FetchedDictionary]) -> Bool {
        guard a.count == b.count else { return false }
        var rest = b
        for row in a {
            guard let match = rest.firstIndex(where: { close(row, $0) }) else { return false }
            rest.remove(at: match)
        }
        return true
    }

    static func close(_ a: FetchedDictionary, _ b: FetchedDictionary) -> Bool {
        guard Set(a.keys) == Set(b.keys) else { return false }
        return a.allSatisfy { key, value in
            if case .attribute(.double(let x)) = value, case .attribute(.double(let y))? = b[key] {
                return x == y || abs(x - y) <= 1e-9 * max(abs(x), abs(y))
            }
            return b[key] == value
        }
    }
}
