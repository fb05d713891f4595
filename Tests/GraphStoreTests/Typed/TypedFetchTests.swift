import Foundation
import Testing
@testable import GraphStore

/// `FetchRequest<T>` with `#Predicate` and `SortDescriptor`: the same tree and SQL as the
/// format string that means the same, typed results, and a clear refusal of what has no
/// counterpart in a fetch.
@Suite struct TypedFetchTests {
    let store: PersistentStore
    let context: ManagedObjectContext

    init() throws {
        store = try PersistentStore(path: Fixtures.exampleStore)
        context = ManagedObjectContext(store: store)
    }

    @Test func theIssuesExampleFetchesTypedBooksSorted() throws {
        let request = try FetchRequest<TypedBook>(predicate: #Predicate { $0.price < 20 && $0.title != nil }, sortBy: [SortDescriptor(\.title, order: .reverse)])
        let books = try context.fetch(request)
        var untyped = try FetchRequest(entityName: "Book", format: "(price == nil OR price < 20) AND title != nil")
        untyped.sortKeys = [SortKey("title", ascending: false)]
        let expected: [ObjectID] = try context.fetch(untyped).map(\.objectID)
        #expect(books.map(\.objectID) == expected)
        #expect(!books.isEmpty && books.allSatisfy { $0.price < 20 })
        let titles: [String] = books.compactMap(\.title)
        #expect(titles == titles.sorted(by: >))
    }

    @Test func aTranslationRunsTheFormatStringsSQL() throws {
        let typed = try FetchRequest<TypedBook>(predicate: #Predicate { $0.title != nil && $0.category?.name == "Fiction" }, sortBy: [SortDescriptor(\.title)])
        var untyped = try FetchRequest(entityName: "Book", format: "title != nil AND category.name == 'Fiction'")
        untyped.sortKeys = [SortKey("title")]
        #expect(typed.predicate?.predicateFormat == untyped.predicate?.predicateFormat)
        #expect(try store.sql(for: typed).sql == store.sql(for: untyped).sql)
    }

    @Test func toManyCountAndContainsWhereAreSubqueriesAndCounts() throws {
        let request = try FetchRequest<TypedBookCategory>(predicate: #Predicate { $0.books.count > 1 && $0.books.contains { $0.price >= 15 } })
        #expect(request.predicate?.predicateFormat == "books.@count > 1 AND SUBQUERY(books, $x1, $x1.price >= 15).@count > 0")
        let names = try context.fetch(request).compactMap(\.name)
        #expect(names == ["Fiction"])
    }

    @Test func anUntranslatablePartFailsWhenTheRequestIsMade() throws {
        #expect(throws: PredicateTranslationError.self) { try FetchRequest<TypedBook>(predicate: #Predicate { $0.price * 2 > 10 }) }
        do {
            _ = try FetchRequest<TypedBook>(predicate: #Predicate { $0.title != nil && ($0.price * 2) > 10 })
            Issue.record("an arithmetic expression was accepted")
        } catch {
            #expect("\(error)".contains("Arithmetic"))
        }
        do {
            _ = try FetchRequest<TypedBook>(predicate: #Predicate { $0.title?.count == 3 })
            Issue.record("a string's count was accepted")
        } catch {
            #expect(error.part.hasPrefix("$0.title?."))
        }
    }

    @Test func aSortDescriptorWithoutAModelKeyPathIsRefused() throws {
        #expect(throws: PredicateTranslationError.self) { try FetchRequest<TypedBook>(sortBy: [SortDescriptor(\.objectID.description)]) }
    }

    @Test func formatStringsStillWorkForTypedRequests() throws {
        let books = try context.fetch(FetchRequest<TypedBook>(format: "category.name == %@", "Fiction"))
        #expect(books.count == 2 && books.allSatisfy { $0.category?.name == "Fiction" })
        #expect(try context.count(for: FetchRequest<TypedBook>(format: "category.name == %@", "Fiction")) == 2)
    }
}
