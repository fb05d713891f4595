import Foundation
import Testing
import TestScratch
@testable import GraphStore

/// How a typed accessor that cannot do its work behaves (see `AccessError`): it reads the
/// empty value, keeps the error with the context, and the next save refuses to write.
@Suite struct TypedAccessFailureTests {
    /// A context holding a fault whose row another context deleted.
    func faultOfADeletedBook() throws -> (ManagedObjectContext, TypedBook) {
        let path = try BrokenStores.copy(Fixtures.exampleStore)
        let reader = ManagedObjectContext(store: try PersistentStore(path: path, readOnly: false))
        reader.register(TypedBook.self)
        let id = try #require(try reader.fetchObjectIDs(FetchRequest(entityName: "Book")).first)
        let book = try #require(try reader.object(for: id) as? TypedBook)
        #expect(book.isFault)
        let writer = ManagedObjectContext(store: try PersistentStore(path: path, readOnly: false))
        try writer.delete(try writer.object(for: id))
        try writer.save()
        return (reader, book)
    }

    @Test func aFaultOnADeletedRowReadsEmptyAndIsKept() throws {
        let (context, book) = try faultOfADeletedBook()
        #expect(book.title == nil)
        #expect(book.price == 0)
        #expect(book.pages.isEmpty)
        #expect(context.accessErrors.map(\.key).prefix(2) == ["title", "price"])
        #expect(context.accessErrors.allSatisfy { $0.objectID == book.objectID })
    }

    @Test func aSaveAfterAFailedAccessThrowsAndWritesNothing() throws {
        let (context, book) = try faultOfADeletedBook()
        let other = try #require(try context.fetch("BookCategory").first as? TypedBookCategory)
        other.name = book.title ?? "untitled"
        let bytes = BrokenStores.bytes(of: context.store.path)
        #expect(throws: AccessFailure.self) { try context.save() }
        #expect(BrokenStores.bytes(of: context.store.path) == bytes)
        #expect(other.isUpdated)
        context.clearAccessErrors()
        try context.save()
        #expect(!context.hasChanges)
    }

    @Test func rollbackForgetsTheFailures() throws {
        let (context, book) = try faultOfADeletedBook()
        _ = book.title
        #expect(context.accessErrors.count == 1)
        context.rollback()
        #expect(context.accessErrors.isEmpty)
    }

    @Test func anObjectOfAnotherClassIsAMismatchNotACrash() throws {
        // Objects made before the class is registered stay plain ManagedObjects.
        let context = ManagedObjectContext(store: try PersistentStore(path: Fixtures.exampleStore))
        let books = try context.fetch("Book")
        context.register(TypedPage.self)
        let page = TypedPage(context: context)
        _ = books
        #expect(page.book == nil)
        try page.setObject(books[0], forKey: "book")
        #expect(page.book == nil)
        let error = try #require(context.accessErrors.last)
        #expect(error.key == "book")
        #expect(error.underlying is TypedObjectError)
    }

    @Test func insertingAnEntityTheModelLacksKeepsTheError() throws {
        let context = ManagedObjectContext(store: try PersistentStore.create(at: try Fixtures.newStorePath(), model: ManagedObjectModel {
            EntityDescription("Other") { AttributeDescription("name", .string) }
        }))
        let book = TypedBook(context: context)
        book.title = "nowhere"
        #expect(book.title == nil)
        #expect(book.managedObjectContext == nil)
        #expect(context.accessErrors.first?.key == "(insert)")
        #expect(!context.hasChanges)
    }
}
