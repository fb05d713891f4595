import Foundation
import Testing
@testable import GraphStore

/// A renaming migration can leave `Z_PRIMARYKEY` (and the root's table) under an entity's
/// old name while the store's metadata lists the new one: such stores still open, with the
/// pairing reported, and nothing is paired on a guess.
@Suite struct StaleEntityNameTests {
    /// A BookStore store whose `Z_PRIMARYKEY` calls `BookCategory` by an older name, as a
    /// renaming migration leaves it; with `renameTable` the table keeps the old name too.
    static func storeWithStaleName(renameTable: Bool) throws -> String {
        let path = try Fixtures.newStorePath()
        do {
            let store = try PersistentStore.create(at: path, model: try Fixtures.bookStoreModel())
            let context = ManagedObjectContext(store: store)
            let fiction = try context.insert("BookCategory")
            try fiction.set("name", "Fiction")
            let book = try context.insert("Book")
            try book.set("title", "Dune")
            try book.setObject(fiction, forKey: "category")
            try context.save()
            try store.checkpoint()
        }
        let connection = try Connection(path: path, mode: .readWrite)
        try connection.execute("UPDATE Z_PRIMARYKEY SET Z_NAME = 'Genre' WHERE Z_NAME = 'BookCategory'")
        if renameTable { try connection.execute("ALTER TABLE ZBOOKCATEGORY RENAME TO ZGENRE") }
        return path
    }

    @Test(arguments: [false, true])
    func anEntityUnderItsOldNameIsFoundThroughTheMetadata(renameTable: Bool) throws {
        let path = try Self.storeWithStaleName(renameTable: renameTable)
        let store = try PersistentStore(path: path, model: try Fixtures.bookStoreModel())
        #expect(store.anomalies.contains { $0.contains("entity BookCategory is recorded in Z_PRIMARYKEY under its old name Genre (Z_ENT 2)") })
        let context = ManagedObjectContext(store: store)
        let categories = try context.fetch("BookCategory")
        #expect(try categories.map { try $0.get("name", as: String.self) } == ["Fiction"])
        let book = try #require(try context.fetch("Book").first)
        #expect(try book.object(forKey: "category")?.get("name", as: String.self) == "Fiction")
    }

    @Test func aStoreNotMigratedToTheModelIsStillAMismatch() throws {
        let path = try Self.storeWithStaleName(renameTable: false)
        // The metadata does not list Shelf: nothing says Genre became Shelf.
        let model = try ManagedObjectModel {
            EntityDescription("Shelf") {
                AttributeDescription("name", .string)
                RelationshipDescription("books", to: "Book", inverse: "category", toMany: true)
            }
            EntityDescription("Book") {
                AttributeDescription("title", .string)
                AttributeDescription("price", .float)
                RelationshipDescription("category", to: "Shelf", inverse: "books")
                RelationshipDescription("pages", to: "Page", inverse: "book", toMany: true, ordered: true)
            }
            EntityDescription("Page") {
                AttributeDescription("text", .string)
                RelationshipDescription("book", to: "Book", inverse: "pages")
            }
        }
        do {
            _ = try PersistentStore(path: path, model: model)
            Issue.record("a store opened with a model it was not migrated to")
        } catch {
            guard case .modelMismatch(_, let differences) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(differences.contains("entity Shelf is in the model but not in the store's Z_PRIMARYKEY"))
            #expect(differences.contains("entity Genre (Z_ENT 2) is in the store but not in the model"))
        }
    }

    @Test func anInferredModelSaysItsNamesAreStale() throws {
        let path = try Self.storeWithStaleName(renameTable: true)
        let store = try PersistentStore(path: path)
        guard case .inferred(let notes) = store.modelOrigin else {
            Issue.record("model from \(store.modelOrigin)")
            return
        }
        #expect(notes.contains { $0.hasPrefix("entities Genre are named as Z_PRIMARYKEY records them, but the store's metadata lists BookCategory") })
        #expect(store.model.entity(named: "Genre") != nil)
    }
}
