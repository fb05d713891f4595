import Foundation
import Testing
@testable import GraphStore

/// Core Data's `resultType = .countResultType` (GraphStore's `.count`): `execute(_:)` runs a request as its result
/// type says, and a count request gives one number, the one `count(for:)` gives, unsaved
/// changes included.
@Suite struct CountResultTypeTests {
    let context: ManagedObjectContext

    /// Four books, prices 5, 10, 15, 20; saved.
    init() throws {
        context = ManagedObjectContext(store: try PersistentStore.create(at: try Fixtures.newStorePath(), model: try Fixtures.bookStoreModel()))
        for (title, price) in [("A", 5.0), ("B", 10), ("C", 15), ("D", 20)] {
            let book = try context.insert("Book")
            try book.set("title", title)
            try book.set("price", price)
        }
        try context.save()
    }

    /// BubbleTeaFinder (Core Data by Tutorials, `FilterViewController.swift`) counts venues
    /// with an `NSFetchRequest<NSNumber>` whose result type is `.countResultType`; the port
    /// sets the same result type (`.count`) and reads the count.
    @Test func aCountRequestGivesTheCountWithUnsavedChanges() throws {
        var request = try FetchRequest(entityName: "Book", format: "price < %@", 16)
        request.resultType = .count
        #expect(try context.execute(request).count == 3)
        let inserted = try context.insert("Book")
        try inserted.set("price", 1.0)
        let cheapest = try #require(try context.fetch(FetchRequest(entityName: "Book", format: "title == 'A'")).first)
        try context.delete(cheapest)
        let dearest = try #require(try context.fetch(FetchRequest(entityName: "Book", format: "title == 'D'")).first)
        try dearest.set("price", 2.0)
        let result = try context.execute(request)
        #expect(result.resultType == .count && result.objects.isEmpty && result.objectIDs.isEmpty)
        #expect(result.count == 4)
        #expect(result.count == (try context.count(for: request)))
        request.fetchOffset = 1
        request.fetchLimit = 2
        #expect(try context.execute(request).count == 2)
        #expect(try context.execute(request).count == (try context.count(for: request)))
    }

    /// A typed request counts the same way.
    @Test func aTypedCountRequestGivesTheCount() throws {
        var request = try FetchRequest<TypedBook>(predicate: #Predicate { $0.price >= 10 })
        request.resultType = .count
        #expect(try context.execute(request).count == 3)
        let added = TypedBook(context: context)
        added.price = 30
        #expect(try context.execute(request).count == (try context.count(for: request)))
        #expect(try context.execute(request).count == 4)
    }

    /// The other result types run as their entry points do, and the SQL shown is the count's.
    @Test func everyResultTypeRunsAsItsEntryPoint() throws {
        var request = FetchRequest(entityName: "Book", sortKeys: [SortKey("price")])
        let objects = try context.execute(request)
        #expect(objects.resultType == .objects && objects.count == 4)
        #expect(objects.objectIDs == (try context.fetchObjectIDs(request)))
        #expect(objects.objects.map(\.objectID) == objects.objectIDs)
        request.resultType = .objectIDs
        #expect(try context.execute(request).objectIDs == objects.objectIDs)
        request.resultType = .dictionary
        request.propertiesToFetch = ["title"]
        #expect(try context.execute(request).dictionaries.compactMap { $0["title"] } == ["A", "B", "C", "D"].map { FetchedValue.attribute(.string($0)) })
        request.resultType = .count
        #expect(try context.store.sql(for: request).sql == (try context.store.sql(for: request, resultType: .count).sql))
        #expect(try context.store.sql(for: request).sql.contains("COUNT("))
        let typed = try ManagedObjectContext(store: context.store).execute(FetchRequest<TypedBook>(predicate: #Predicate { $0.price < 12 }))
        #expect(typed.objects.map(\.price).sorted() == [5, 10])
    }

    /// `FetchResultType.allCases` lists each kind once (Core Data's names are porting
    /// renames, checked by PortingNamesTests).
    @Test func everyKindIsListedOnce() {
        #expect(FetchResultType.allCases == [.objects, .objectIDs, .count, .dictionary])
    }
}
