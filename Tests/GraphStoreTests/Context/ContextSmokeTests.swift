import Foundation
import Testing
@testable import GraphStore

@Suite struct ContextRoundTripTests {
    @Test func insertSaveReopenFetch() throws {
        let path = try Fixtures.newStorePath()
        let model = try Fixtures.bookStoreModel()
        do {
            let store = try PersistentStore.create(at: path, model: model)
            let context = ManagedObjectContext(store: store)
            let fiction = try context.insert("BookCategory")
            try fiction.set("name", "Fiction")
            let book = try context.insert("Book")
            try book.set("title", "Dune")
            try book.set("price", 18.5)
            try book.setObject(fiction, forKey: "category")
            for text in ["one", "two", "three"] {
                let page = try context.insert("Page")
                try page.set("text", text)
                try book.add(page, toKey: "pages")
            }
            #expect(try fiction.objects(forKey: "books").count == 1)
            try context.save()
            #expect(book.objectID.primaryKey == 1)
            #expect(!context.hasChanges)
        }
        let store = try PersistentStore(path: path, model: model)
        let context = ManagedObjectContext(store: store)
        let books = try context.fetch("Book")
        #expect(books.count == 1)
        let book = try #require(books.first)
        #expect(try book.get("title") == "Dune")
        #expect(try book.get("price", as: Double.self) == 18.5)
        #expect(try book.object(forKey: "category")?.get("name") == "Fiction")
        #expect(try book.objects(forKey: "pages").map { try $0.get("text", as: String.self) } == ["one", "two", "three"])
    }
}
