import Foundation
import Testing
import TestScratch
@testable import GraphStore

/// The container: a main-actor view context, background contexts on their own connections,
/// saves merged into the view context, conflicts reported, no update lost.
@Suite struct PersistentContainerTests {
    @MainActor @Test func theIssuesExampleRuns() async throws {
        let path = try Fixtures.newStorePath("BookStore.sqlite")
        let container = try PersistentContainer(path: path, model: Fixtures.bookStoreModel())
        try await container.performBackgroundTask { context in
            let fiction = TypedBookCategory(context: context)
            fiction.name = "Fiction"
            let book = TypedBook(context: context)
            book.title = "The first book"
            book.price = 15
            book.category = fiction
            #expect(fiction.books.contains(book))
            try context.save()
        }
        let context = container.viewContext
        let cheap = try context.fetch(FetchRequest<TypedBook>(predicate: #Predicate { $0.price < 20 && $0.title != nil }, sortBy: [SortDescriptor(\.title)]))
        #expect(cheap.map { "\($0.title ?? "") \($0.category?.name ?? "") \($0.pages.count)" } == ["The first book Fiction 0"])
    }

    @MainActor @Test func aBackgroundSaveIsMergedIntoTheViewContext() async throws {
        let container = try PersistentContainer(path: try BrokenStores.copy(Fixtures.exampleStore), model: Fixtures.bookStoreModel())
        let books = try container.viewContext.fetch(FetchRequest<TypedBook>(sortBy: [SortDescriptor(\.title)]))
        let (renamed, removed) = (books[0], books[1])
        #expect(renamed.title == "The first book")
        let ids = (renamed.objectID, removed.objectID)
        try await container.performBackgroundTask { context in
            let book = try context.object(for: ids.0)
            try book.set("title", "Renamed elsewhere")
            try context.delete(try context.object(for: ids.1))
            try context.save()
        }
        #expect(renamed.title == "Renamed elsewhere")
        #expect(removed.managedObjectContext == nil)
        #expect(try container.viewContext.fetch(FetchRequest<TypedBook>()).count == 2)
        #expect(container.viewContext.accessErrors.isEmpty)
    }

    /// A context of newBackgroundContext(), used by a task of its own: its save reaches the
    /// view context once the merge it starts has run.
    @MainActor @Test func aSaveInANewBackgroundContextIsMergedIntoTheViewContext() async throws {
        let container = try PersistentContainer(path: try BrokenStores.copy(Fixtures.exampleStore), model: Fixtures.bookStoreModel())
        let book = try #require(try container.viewContext.fetch(FetchRequest<TypedBook>(sortBy: [SortDescriptor(\.title)])).first)
        #expect(book.title == "The first book")
        let id = book.objectID
        try await Task.detached {
            let context = try container.newBackgroundContext()
            try context.object(for: id).set("title", "Renamed in the background")
            try context.save()
        }.value
        await container.mergesOfBackgroundSaves()
        #expect(book.title == "Renamed in the background")
        #expect(container.viewContext.accessErrors.isEmpty)
    }

    @MainActor @Test func anUnsavedChangeMeetsTheOtherSaveAsAConflict() async throws {
        let container = try PersistentContainer(path: try BrokenStores.copy(Fixtures.exampleStore), model: Fixtures.bookStoreModel())
        let book = try #require(try container.viewContext.fetch(FetchRequest<TypedBook>()).first)
        book.title = "Ours"
        let id = book.objectID
        try await container.performBackgroundTask { context in
            try context.object(for: id).set("title", "Theirs")
            try context.save()
        }
        #expect(book.title == "Ours")
        do {
            try container.viewContext.save()
            Issue.record("the view context overwrote another context's save")
        } catch let error as StoreError {
            #expect(error.code == 133020)
        }
        let reader = ManagedObjectContext(store: try PersistentStore(path: container.path, model: container.model))
        #expect(try reader.object(for: id).get("title", as: String.self) == "Theirs")
    }

    /// The issue's case: an unsaved edit in the view context and a background save of
    /// another property of the same object are combined, as Core Data's automatic merge does.
    @MainActor @Test func anUnsavedEditAndABackgroundSaveOfAnotherPropertyAreCombined() async throws {
        let container = try PersistentContainer(path: try BrokenStores.copy(Fixtures.exampleStore), model: Fixtures.bookStoreModel())
        let book = try #require(try container.viewContext.fetch(FetchRequest<TypedBook>(sortBy: [SortDescriptor(\.title)])).first)
        book.price = 42
        let id = book.objectID
        try await container.performBackgroundTask { context in
            try context.object(for: id).set("title", "Theirs")
            try context.save()
        }
        #expect(book.title == "Theirs" && book.price == 42)
        try container.viewContext.save()
        let reader = ManagedObjectContext(store: try PersistentStore(path: container.path, model: container.model))
        let stored = try reader.object(for: id)
        #expect(try stored.get("title", as: String.self) == "Theirs" && stored.get("price", as: Double.self) == 42)
    }

    @Test func concurrentBackgroundSavesLoseNoUpdate() async throws {
        let container = try await PersistentContainer(path: try BrokenStores.copy(Fixtures.exampleStore), model: Fixtures.bookStoreModel())
        let id = try await container.performBackgroundTask { context in
            try #require(try context.fetch(FetchRequest<TypedBook>(format: "title == %@", "The second book")).first).objectID
        }
        let tasks = 24
        let conflicts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    try await container.performBackgroundTask { context in
                        // Add one, and on a conflict read the stored value and add one again.
                        var conflicts = 0
                        while true {
                            let book = try context.object(for: id, as: TypedBook.self)
                            book.price += 1
                            do {
                                try context.save()
                                return conflicts
                            } catch StoreError.optimisticLockingFailure {
                                conflicts += 1
                                try context.reload([book])
                            }
                        }
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        let price = try await container.performBackgroundTask { context in
            try context.object(for: id, as: TypedBook.self).price
        }
        #expect(price == 15 + Float(tasks))
        print("\(tasks) concurrent increments, \(conflicts) conflicts retried")
    }
}
