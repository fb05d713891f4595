import Foundation
import Testing
@testable import GraphStore

/// Batch delete, update and insert requests, run on real stores and checked against the
/// rows SQLite holds afterwards.
@Suite struct BatchRequestTests {
    /// Authors 1—* Books (nullify), Shelves 1—* Books (cascade), Owners 1—* Pets (deny),
    /// Books *—* Tags.
    private func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Author") {
                AttributeDescription("name", .string)
                RelationshipDescription("books", to: "Book", inverse: "author", toMany: true).deleteRule(.nullify)
            }
            EntityDescription("Shelf") {
                AttributeDescription("label", .string)
                RelationshipDescription("books", to: "Book", inverse: "shelf", toMany: true).deleteRule(.cascade)
            }
            EntityDescription("Book") {
                AttributeDescription("title", .string)
                AttributeDescription("price", .double)
                AttributeDescription("copies", .integer64).defaultValue(.integer(1))
                RelationshipDescription("author", to: "Author", inverse: "books")
                RelationshipDescription("shelf", to: "Shelf", inverse: "books")
                RelationshipDescription("tags", to: "Tag", inverse: "books", toMany: true)
            }
            EntityDescription("Tag") {
                AttributeDescription("name", .string)
                RelationshipDescription("books", to: "Book", inverse: "tags", toMany: true)
            }
            EntityDescription("Owner") {
                AttributeDescription("name", .string)
                RelationshipDescription("pets", to: "Pet", inverse: "owner", toMany: true).deleteRule(.deny)
            }
            EntityDescription("Pet") {
                AttributeDescription("name", .string)
                RelationshipDescription("owner", to: "Owner", inverse: "pets")
            }
        }
    }

    /// Ann wrote A (1) and B (2) on shelf S1; Bo wrote C (3) on S2; A and C are tagged
    /// "x"; owner Olga has a pet, owner Pat none.
    private func seeded() throws -> (ManagedObjectContext, String) {
        let path = try Fixtures.newStorePath()
        let context = ManagedObjectContext(store: try PersistentStore.create(at: path, model: try model()))
        let ann = try context.insert("Author")
        try ann.set("name", "Ann")
        let bo = try context.insert("Author")
        try bo.set("name", "Bo")
        let s1 = try context.insert("Shelf")
        try s1.set("label", "S1")
        let s2 = try context.insert("Shelf")
        try s2.set("label", "S2")
        let tag = try context.insert("Tag")
        try tag.set("name", "x")
        for (title, price, author, shelf, tagged) in [("A", 1.0, ann, s1, true), ("B", 2.0, ann, s1, false), ("C", 3.0, bo, s2, true)] {
            let book = try context.insert("Book")
            try book.set("title", title)
            try book.set("price", price)
            try book.setObject(author, forKey: "author")
            try book.setObject(shelf, forKey: "shelf")
            if tagged { try book.add(tag, toKey: "tags") }
        }
        let olga = try context.insert("Owner")
        try olga.set("name", "Olga")
        try context.insert("Owner").set("name", "Pat")
        let pet = try context.insert("Pet")
        try pet.set("name", "Rex")
        try pet.setObject(olga, forKey: "owner")
        try context.save()
        return (ManagedObjectContext(store: try PersistentStore(path: path, model: try model(), readOnly: false)), path)
    }

    private func rows(_ path: String, _ sql: String) throws -> [[SQLiteValue]] {
        try Connection(path: path, mode: .readOnly).rows(sql)
    }

    private func titles(_ path: String) throws -> [String] {
        try rows(path, "SELECT ZTITLE FROM ZBOOK ORDER BY ZTITLE").compactMap { row in if case .text(let title) = row[0] { title } else { nil } }
    }

    /// The rows of the Book—Tag join table (`Z_<n>TAGS` or `Z_<n>BOOKS`, by entity number).
    private func joinRowCount(_ path: String) throws -> Int64? {
        let table = try rows(path, "SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'Z_[0-9]*'")
        guard case .text(let name)? = table.first?.first else { return nil }
        return try rows(path, "SELECT count(*) FROM \(name)")[0][0].integer
    }

    @Test func deleteByPredicateCountsWhatItMatched() throws {
        let (context, path) = try seeded()
        var request = BatchDeleteRequest(fetchRequest: try FetchRequest(entityName: "Book", format: "price >= 2"))
        request.resultType = .count
        #expect(try context.execute(request).count == 2)
        #expect(try titles(path) == ["A"])
        #expect(try joinRowCount(path) == 1)
    }

    @Test func cascadeDeletesDestinationsAndReportsTheirIDs() throws {
        let (context, path) = try seeded()
        var request = BatchDeleteRequest(fetchRequest: try FetchRequest(entityName: "Shelf", format: "label == 'S1'"))
        request.resultType = .objectIDs
        let result = try context.execute(request)
        #expect(result.count == 1)
        #expect(result.objectIDs.map(\.mapping.name).sorted() == ["Book", "Book", "Shelf"])
        #expect(try titles(path) == ["C"])
        // The tag keeps its other book; the deleted books' join rows are gone.
        #expect(try joinRowCount(path) == 1)
    }

    @Test func nullifyClearsTheInverseAndRaisesItsVersion() throws {
        let (context, path) = try seeded()
        let before = try rows(path, "SELECT Z_OPT FROM ZBOOK WHERE ZTITLE = 'C'")[0][0].integer ?? 0
        try context.execute(BatchDeleteRequest(fetchRequest: try FetchRequest(entityName: "Author", format: "name == 'Bo'")))
        let c = try rows(path, "SELECT ZAUTHOR, Z_OPT FROM ZBOOK WHERE ZTITLE = 'C'")[0]
        #expect(c[0] == .null)
        #expect(c[1].integer == before + 1)
        #expect(try rows(path, "SELECT count(*) FROM ZBOOK WHERE ZAUTHOR IS NOT NULL")[0][0].integer == 2)
    }

    @Test func denyRefusesTheWholeBatch() throws {
        let (context, path) = try seeded()
        #expect(throws: BatchRequestError.deniedDelete(entity: "Owner", relationship: "pets")) {
            try context.execute(BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "Owner")))
        }
        #expect(try rows(path, "SELECT count(*) FROM ZOWNER")[0][0].integer == 2)
        // Without the pet's owner in the batch, the delete goes through.
        try context.execute(BatchDeleteRequest(fetchRequest: try FetchRequest(entityName: "Owner", format: "name == 'Pat'")))
        #expect(try rows(path, "SELECT ZNAME FROM ZOWNER") == [[.text("Olga")]])
    }

    @Test func deleteByObjectIDsMergesIntoALiveContext() throws {
        let (context, path) = try seeded()
        let books = try context.fetch(try FetchRequest(entityName: "Book", format: "title != 'B'"))
        var request = BatchDeleteRequest(objectIDs: books.map(\.objectID))
        request.resultType = .objectIDs
        let result = try context.execute(request)
        #expect(Set(result.objectIDs) == Set(books.map(\.objectID)))
        #expect(context.registeredObjects.filter { $0.entity.name == "Book" }.count == 2)
        try context.mergeChanges(result.changes)
        #expect(context.registeredObjects.filter { $0.entity.name == "Book" }.isEmpty)
        #expect(try titles(path) == ["B"])
        let author = try #require(try context.fetch("Author").first)
        #expect(throws: BatchRequestError.mixedEntities(["Author", "Book"])) {
            try context.execute(BatchDeleteRequest(objectIDs: [author.objectID, try context.fetch("Book")[0].objectID]))
        }
    }

    @Test func updateSetsValuesAndMakesAHolderOfTheOldVersionConflict() throws {
        let (context, path) = try seeded()
        let a = try #require(try context.fetch(try FetchRequest(entityName: "Book", format: "title == 'A'")).first)
        var request = BatchUpdateRequest(entityName: "Book")
        request.predicate = try ObjectPredicate(format: "price < 2.5")
        request.propertiesToUpdate = ["price": .double(9), "copies": nil]
        request.resultType = .objectIDs
        let result = try context.execute(request)
        #expect(result.count == 2)
        #expect(try rows(path, "SELECT ZPRICE FROM ZBOOK ORDER BY ZTITLE").map { $0[0] } == [.real(9), .real(9), .real(3)])
        #expect(try rows(path, "SELECT count(*) FROM ZBOOK WHERE ZCOPIES IS NULL")[0][0].integer == 2)
        try a.set("title", "A2")
        #expect(throws: StoreError.self) { try context.save() }
        #expect(throws: BatchRequestError.notAnAttribute(entity: "Book", key: "author")) {
            var wrong = BatchUpdateRequest(entityName: "Book")
            wrong.propertiesToUpdate = ["author": nil]
            try context.execute(wrong)
        }
        #expect(throws: StoreError.self) {
            var wrong = BatchUpdateRequest(entityName: "Book")
            wrong.propertiesToUpdate = ["price": .string("cheap")]
            try context.execute(wrong)
        }
    }

    @Test func insertTakesDefaultsAndKeysFromZMax() throws {
        let (context, path) = try seeded()
        var request = BatchInsertRequest(entityName: "Book", objects: [["title": .string("D"), "price": .double(4)], ["title": .string("E")]])
        request.resultType = .objectIDs
        let result = try context.execute(request)
        #expect(result.objectIDs.compactMap(\.primaryKey) == [4, 5])
        #expect(try rows(path, "SELECT ZTITLE, ZCOPIES, Z_OPT FROM ZBOOK WHERE Z_PK >= 4 ORDER BY Z_PK")
            == [[.text("D"), .integer(1), .integer(1)], [.text("E"), .integer(1), .integer(1)]])
        #expect(try rows(path, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Book'")[0][0].integer == 5)
        let next = try context.insert("Book")
        try context.save()
        #expect(next.objectID.primaryKey == 6)
    }

    @Test func aReadOnlyStoreRefusesBatches() throws {
        let (_, path) = try seeded()
        let reader = ManagedObjectContext(store: try PersistentStore(path: path, model: try model()))
        #expect(throws: StoreError.self) { try reader.execute(BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "Tag"))) }
        #expect(try rows(path, "SELECT count(*) FROM ZTAG")[0][0].integer == 1)
    }
}
