import Foundation
import Testing
import TestScratch

@testable import GraphStore

/// A dictionary fetch's rows share one layout of keys; each reads, iterates, compares and
/// hashes as a `[String: FetchedValue]` with the same entries.
@Suite("Fetched dictionaries: one layout per fetch, read as dictionaries")
struct FetchedDictionaryTests {
    static func books() throws -> (ManagedObjectContext, FetchRequest<ManagedObject>) {
        let store = try PersistentStore(path: try BrokenStores.copy(Fixtures.exampleStore), readOnly: false)
        var request = FetchRequest(entityName: "Book", sortKeys: [SortKey("title")])
        request.resultType = .dictionary
        request.propertiesToFetch = ["title", "price", "category"]
        return (ManagedObjectContext(store: store), request)
    }

    @Test("a fetch's rows share one layout; each reads its values by key, in the properties' order")
    func rowsOfAFetch() throws {
        let (context, request) = try Self.books()
        let rows = try context.fetchDictionaries(request)
        let titles = try ManagedObjectContext(store: context.store).fetch(FetchRequest(entityName: "Book", sortKeys: [SortKey("title")]))
            .map { try $0.value(forKey: "title")?.stringValue }
        #expect(rows.map { $0["title"]?.attributeValue?.stringValue } == titles)
        #expect(rows.count == 3)
        #expect(rows.allSatisfy { $0.layout === rows[0].layout })
        for row in rows {
            #expect(row.keys == ["title", "price", "category"])
            #expect(row.count == 3)
            #expect(row["category"]?.objectID?.entityName == "BookCategory")
            #expect(row["author"] == nil)
            #expect(row.dictionary.count == 3)
            #expect(FetchedDictionary(row.dictionary) == row)
        }
    }

    @Test("a nil value is left out: not read, not counted, not iterated, not equal to a row that has it")
    func missingValues() throws {
        let (context, request) = try Self.books()
        let book = try #require(try context.fetch(FetchRequest(entityName: "Book", sortKeys: [SortKey("title")])).first)
        try book.setObject(nil, forKey: "category")
        try context.save()
        let row = try #require(try context.fetchDictionaries(request).first)
        #expect(row["category"] == nil)
        #expect(row.count == 2)
        #expect(row.keys == ["title", "price"])
        #expect(row.map(\.key) == ["title", "price"])
        let title = try #require(row["title"]), price = try #require(row["price"])
        #expect(row == ["title": title, "price": price])
        var filled = row
        filled["category"] = .attribute(.string("x"))
        #expect(filled != row)
        #expect(filled.count == 3)
    }

    @Test("equal to a literal with the same entries in any order, with equal hashes; unequal when a value or key differs")
    func equalityAndHash() {
        let a: FetchedDictionary = ["title": .attribute(.string("Dune")), "price": .attribute(.double(9.5))]
        let b: FetchedDictionary = ["price": .attribute(.double(9.5)), "title": .attribute(.string("Dune"))]
        let fromDictionary = FetchedDictionary(["title": .attribute(.string("Dune")), "price": .attribute(.double(9.5))])
        #expect(a == b)
        #expect(a == fromDictionary)
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b, fromDictionary]).count == 1)
        #expect(a != ["title": .attribute(.string("Dune")), "price": .attribute(.double(9))])
        #expect(a != ["title": .attribute(.string("Dune")), "cost": .attribute(.double(9.5))])
        #expect(a != ["title": .attribute(.string("Dune"))])
        let empty: FetchedDictionary = [:]
        #expect(empty.isEmpty && empty.count == 0 && empty.description == "[:]")
    }

    @Test("setting a value: a key of the layout changes in place, a new key is added, nil removes")
    func setting() {
        var row: FetchedDictionary = ["a": .attribute(.integer(1)), "b": .attribute(.integer(2))]
        let original = row
        row["a"] = .attribute(.integer(10))
        row["c"] = .attribute(.integer(3))
        row["b"] = nil
        row["d"] = nil
        #expect(row == ["a": .attribute(.integer(10)), "c": .attribute(.integer(3))])
        #expect(row.keys == ["a", "c"])
        #expect(original == ["a": .attribute(.integer(1)), "b": .attribute(.integer(2))])
    }

    @Test("a layout wider than a search in order finds every key by hashing, long keys too")
    func wideLayout() {
        let names = (0..<20).map { "property number \($0) with a long name" }
        var source: [String: FetchedValue] = [:]
        for (i, name) in names.enumerated() { source[name] = .attribute(.integer(Int64(i))) }
        let row = FetchedDictionary(source)
        for (i, name) in names.enumerated() { #expect(row[name] == .attribute(.integer(Int64(i)))) }
        #expect(row["property number 20 with a long name"] == nil)
        #expect(row.count == 20)
        #expect(row.dictionary == source)
    }

    @Test("the description lists the entries in the layout's order")
    func description() {
        let row = FetchedDictionary(layout: .init(["title", "price"]), slots: [.attribute(.string("Dune")), .attribute(.double(9.5))])
        #expect(row.description == "[\"title\": Dune, \"price\": 9.5]")
    }
}
