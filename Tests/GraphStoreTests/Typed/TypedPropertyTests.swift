import Foundation
import Testing
import TestScratch
@testable import GraphStore

/// Typed properties read and write as `get`/`set` do: faults fire, changes are recorded,
/// inverses kept, undo registered, objects marked updated.
@Suite struct TypedPropertyTests {
    @Test func readsTheExampleStoreThroughTypedClasses() throws {
        let context = ManagedObjectContext(store: try PersistentStore(path: Fixtures.exampleStore))
        context.register(TypedBook.self)
        let books = try context.fetch("Book").map { try #require($0 as? TypedBook) }
        #expect(books.count == 3)
        for book in books {
            #expect(book.title == (try book.get("title", as: String.self)))
            #expect(book.price == Float(try book.get("price", as: Double.self) ?? 0))
            #expect(book.category?.name == (try book.object(forKey: "category")?.get("name", as: String.self)))
            #expect(book.category?.books.contains(book) == true)
        }
        #expect(context.accessErrors.isEmpty)
    }

    @Test func readsACorpusStoreThroughTypedClasses() throws {
        guard let corpus = try Fixtures.requireCorpus("readsACorpusStoreThroughTypedClasses") else { return }
        let seed = corpus.appendingPathComponent("stores/Apress__pro-ios-persistence/Ch04/BookStore/BookStore/seed.sqlite").path
        let context = ManagedObjectContext(store: try PersistentStore(path: seed, model: Fixtures.bookStoreModel()))
        context.register(TypedBookCategory.self)
        let categories = try context.fetch("BookCategory").map { try #require($0 as? TypedBookCategory) }
        #expect(categories.count == 2)
        let books = categories.flatMap(\.books)
        #expect(books.count == 4)
        #expect(books.allSatisfy { $0.title != nil && $0.category != nil && $0.pages.isEmpty })
        #expect(Set(books.compactMap(\.category?.name)) == Set(categories.compactMap(\.name)))
        #expect(context.accessErrors.isEmpty)
    }

    @Test func writesAreRecordedKeepInversesAndSave() throws {
        let path = try Fixtures.newStorePath()
        let model = try Fixtures.bookStoreModel()
        do {
            let context = ManagedObjectContext(store: try PersistentStore.create(at: path, model: model))
            let fiction = TypedBookCategory(context: context)
            fiction.name = "Fiction"
            let book = TypedBook(context: context)
            book.title = "Dune"
            book.price = 18.5
            book.category = fiction
            #expect(fiction.books == [book])
            for text in ["one", "two", "three"] {
                let page = TypedPage(context: context)
                page.text = text
                page.book = book
            }
            #expect(book.pages.map(\.text) == ["one", "two", "three"])
            book.pages = book.pages.reversed()
            #expect(book.pages.compactMap(\.text) == ["three", "two", "one"])
            #expect(context.accessErrors.isEmpty)
            try context.save()
        }
        let context = ManagedObjectContext(store: try PersistentStore(path: path, model: model))
        let book = try #require(try context.fetch("Book").first)
        #expect(try book.get("title", as: String.self) == "Dune")
        #expect(try book.get("price", as: Double.self) == 18.5)
        #expect(try book.object(forKey: "category")?.get("name", as: String.self) == "Fiction")
        #expect(try book.objects(forKey: "pages").map { try $0.get("text", as: String.self) } == ["three", "two", "one"])
    }

    @Test func aTypedWriteMarksUpdatedAndIsUndone() throws {
        let path = try BrokenStores.copy(Fixtures.exampleStore)
        let context = ManagedObjectContext(store: try PersistentStore(path: path, readOnly: false))
        context.undoManager = ContextUndoManager()
        context.register(TypedBook.self)
        let book = try #require(try context.fetch("Book").first as? TypedBook)
        let before = book.title
        book.title = "Renamed"
        #expect(book.isUpdated && book.changedKeys() == ["title"])
        #expect(try book.get("title", as: String.self) == "Renamed")
        context.undoManager?.endEvent()
        try context.undoManager?.undo()
        #expect(book.title == before)
    }

    @Test func movingABookKeepsBothInverses() throws {
        let context = ManagedObjectContext(store: try PersistentStore(path: try BrokenStores.copy(Fixtures.exampleStore), readOnly: false))
        context.register(TypedBook.self)
        let categories = try context.fetch("BookCategory").map { try #require($0 as? TypedBookCategory) }
        let (from, to) = (categories[0], categories[1])
        let book = try #require(from.books.first)
        let (fromCount, toCount) = (from.books.count, to.books.count)
        book.category = to
        #expect(from.books.count == fromCount - 1 && !from.books.contains(book))
        #expect(to.books.count == toCount + 1 && to.books.contains(book))
        to.books = []
        #expect(book.category == nil)
    }
}
