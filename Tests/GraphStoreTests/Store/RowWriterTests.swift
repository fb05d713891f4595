import Foundation
import Testing

@testable import GraphStore

/// The store's typed row writer: a row read from the store is written back as it is (values,
/// to-one keys, `Z_FOK_` positions), and an update checks the row's version.
@Suite struct RowWriterTests {
    /// A store with one category, one book in it and two pages of the book.
    private func seeded() throws -> PersistentStore {
        let store = try PersistentStore.create(at: try Fixtures.newStorePath(), model: try Fixtures.bookStoreModel())
        let context = ManagedObjectContext(store: store)
        let category = try context.insert("BookCategory")
        try category.set("name", "Fiction")
        let book = try context.insert("Book")
        try book.set("title", "Dune")
        try book.set("price", 9.5)
        try book.setObject(category, forKey: "category")
        for text in ["one", "two"] {
            let page = try context.insert("Page")
            try page.set("text", text)
            try book.add(page, toKey: "pages")
        }
        try context.save()
        return store
    }

    @Test func aRowReadIsInsertedAgainAsItWas() throws {
        let store = try seeded()
        let pages = try store.mapping(for: "Page")
        let second = try #require(try store.row(of: pages, primaryKey: 2))
        #expect(second.toOne[pages.relationshipIndex(of: "book") ?? -1]?.order == PersistentStore.orderValue(at: 1))
        var copy = second
        try store.transaction {
            copy.primaryKey = try store.allocatePrimaryKeys(root: pages, count: 1).lowerBound
            try store.insertRow(copy)
        }
        #expect(copy.primaryKey == 3)
        let written = try #require(try store.row(of: pages, primaryKey: 3))
        #expect(written.attributes == second.attributes)
        #expect(written.toOne == second.toOne)
        #expect(written.version == 1)
        #expect(written.problems.isEmpty)
    }

    @Test func anUpdateChecksTheVersion() throws {
        let store = try seeded()
        let books = try store.mapping(for: "Book")
        var book = try #require(try store.row(of: books, primaryKey: 1))
        let title = try #require(books.attributeIndex(of: "title"))
        book.attributes[title] = .string("Dune Messiah")
        let category = try #require(books.relationshipIndex(of: "category"))
        book.toOne[category] = nil
        try store.transaction { try store.updateRow(book, version: 1) }
        let updated = try #require(try store.row(of: books, primaryKey: 1))
        #expect(updated.attributes[title] == .string("Dune Messiah"))
        #expect(updated.toOne[category] == nil)
        #expect(updated.version == 2)
        // Written over version 1 again: someone else's change (this one) is in the way.
        #expect(throws: StoreError.self) { try store.transaction { try store.updateRow(book, version: 1) } }
        #expect(try store.row(of: books, primaryKey: 1)?.version == 2)
    }
}
