import Foundation
@testable import GraphStore

/// Stores and contexts with an undo manager for the undo tests.
enum UndoFixtures {
    /// A new BookStore-model store with a context that has an undo manager.
    static func bookStore() throws -> (ManagedObjectContext, ContextUndoManager, String) {
        let path = try Fixtures.newStorePath()
        let store = try PersistentStore.create(at: path, model: Fixtures.bookStoreModel())
        let context = ManagedObjectContext(store: store)
        let undo = ContextUndoManager()
        context.undoManager = undo
        return (context, undo, path)
    }

    /// A copy of the example BookStore seed (2 categories, 3 books) opened for writing,
    /// with an undo manager.
    static func seededBookStore() throws -> (ManagedObjectContext, ContextUndoManager, String) {
        let path = try Fixtures.newStorePath("BookStore.sqlite")
        try FileManager.default.copyItem(atPath: seedPath, toPath: path)
        let store = try PersistentStore(path: path, model: Fixtures.bookStoreModel(), readOnly: false)
        let context = ManagedObjectContext(store: store)
        let undo = ContextUndoManager()
        context.undoManager = undo
        return (context, undo, path)
    }

    /// `examples/BookStore/BookStore.sqlite`.
    static var seedPath: String { Fixtures.exampleStore }

    /// Rows of a query on the store file, as text.
    static func rows(_ path: String, _ sql: String) throws -> [[String]] {
        let connection = try Connection(path: path, mode: .readOnly)
        return try connection.rows(sql).map { $0.map(\.description) }
    }

    /// The titles of the books the context sees, sorted.
    static func titles(_ context: ManagedObjectContext) throws -> [String] {
        try context.fetch("Book").map { try $0.get("title", as: String.self) ?? "" }.sorted()
    }
}
