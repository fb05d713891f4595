import Foundation
import Testing

@testable import GraphStore

/// Long key paths: each to-many key nests KVC's value one level deeper, so evaluating a
/// path costs the square of its length, and a path of to-one keys is a join per key, of
/// which SQLite allows 63. A key path has at most 64 keys (a typed error names the limit,
/// where the 65th key is), and a predicate needing more joins than SQL allows is
/// evaluated in memory rather than failing in SQLite.
@Suite("Long key paths")
struct LongKeyPathTests {
    /// `address.person` repeated, then `.name`.
    static func toOneChain(_ pairs: Int) -> String {
        Array(repeating: "address.person", count: pairs).joined(separator: ".") + ".name"
    }

    @Test func aKeyPathPastTheLimitIsAParseErrorAtItsFirstKeyTooMany() throws {
        #expect(throws: Never.self) { try ObjectPredicate(format: Self.toOneChain(31) + ".length > 0") }
        let tooLong = Self.toOneChain(32) + " == 'x'"
        #expect(throws: PredicateParseError(column: 32 * 15 + 1, message: "a key path may have at most 64 keys")) {
            try ObjectPredicate(format: tooLong)
        }
        // 30,000 keys (a 480 KB line) stop at the same place.
        let huge = Self.toOneChain(15_000) + " == 'x'"
        #expect(throws: PredicateParseError(column: 32 * 15 + 1, message: "a key path may have at most 64 keys")) {
            try ObjectPredicate(format: huge)
        }
        // A chain broken by an index counts as one path; %K too.
        #expect(throws: PredicateParseError.self) { try ObjectPredicate(format: Self.toOneChain(20) + "[FIRST]." + Self.toOneChain(20)) }
        #expect(throws: PredicateParseError.self) { try ObjectPredicate(format: "%K == 1", Self.toOneChain(40)) }
    }

    /// 62 to-one joins would pass SQLite's limit of 64 tables: the predicate is evaluated
    /// in memory instead, with the same answer.
    @Test func moreJoinsThanSQLiteTakesAreEvaluatedInMemory() throws {
        let (store, context) = try FetchFixtures.sampleStore()
        let long = FetchRequest(entityName: "Person", predicate: try ObjectPredicate(format: Self.toOneChain(31) + " == 'Alice'"))
        let short = FetchRequest(entityName: "Person", predicate: try ObjectPredicate(format: "address.person.name == 'Alice'"))
        #expect(try context.count(for: long) == 1)
        #expect(try context.count(for: long) == (try context.count(for: short)))
        let generated = try store.sql(for: long)
        #expect(generated.inMemoryPredicate != nil)
        #expect(generated.notes.contains { $0.contains("more than 60 to-one joins in one SELECT (SQLite joins at most 64 tables)") })
    }

    /// 400 books in two categories, saved; each book's `category.books` is 200 books.
    static func crowdedStore() throws -> (PersistentStore, ManagedObjectContext) {
        let store = try PersistentStore.create(at: try Fixtures.newStorePath(), model: try Fixtures.bookStoreModel())
        let context = ManagedObjectContext(store: store)
        let categories = try ["Fiction", "Biography"].map { name in
            let category = try context.insert("BookCategory")
            try category.set("name", name)
            return category
        }
        for number in 0..<400 {
            let book = try context.insert("Book")
            try book.set("title", "b\(number)")
            try book.setObject(categories[number % 2], forKey: "category")
        }
        try context.save()
        return (store, ManagedObjectContext(store: store))
    }

    /// A to-many key path in memory takes each set's members once (as `NSSet` does), found
    /// by hash (comparing every pair made `category.books.title == 'x'` over 2,000 books in
    /// two categories run for over a minute; by hash, 6.8 s in a debug build). A key on a set of
    /// sets nests (KVC does not flatten), so after 6 `category.books` hops the outer set
    /// still has one member.
    @Test func aToManyPathOverLargeSetsIsEvaluatedByHash() throws {
        let (_, context) = try Self.crowdedStore()
        let hops = Array(repeating: "category.books", count: 6).joined(separator: ".")
        for (format, expected) in [
            ("category.books.title CONTAINS 'b399'", 200),
            ("ANY category.books.title == 'b399'", 200),
            ("category.books.title == 'b0'", 0),
            ("\(hops).@count == 1", 400),
            ("\(hops).title == 'b0'", 0),
        ] {
            let request = FetchRequest(entityName: "Book", predicate: try ObjectPredicate(format: format))
            #expect(try context.count(for: request) == expected, "\(format)")
        }
        let inMemory = FetchRequest(entityName: "Book", predicate: try ObjectPredicate(format: "category.books.title == 'b0'"))
        #expect(try context.store.sql(for: inMemory).inMemoryPredicate != nil)
    }

    /// A key mapped over a collection stops when the operation running it is interrupted:
    /// one object's evaluation is the long step between two rows, where SQLite's own
    /// interrupt cannot reach.
    @Test func anInterruptStopsTheEvaluationOfAToManyPath() throws {
        let (store, context) = try Self.crowdedStore()
        let request = FetchRequest(entityName: "Book", predicate: try ObjectPredicate(format: "category.books.category.books.title CONTAINS 'x'"))
        let interruption = store.fetchSupport.interruption
        let error = #expect(throws: PredicateEvaluationError.self) {
            try interruption.watching {
                interruption.interrupt()
                _ = try context.count(for: request)
            }
        }
        #expect(error?.isInterruption == true)
        // Not interrupted, the same fetch answers.
        #expect(try context.count(for: request) == 0)
    }

    /// Equal values share a bucket, so `distinct` and the equality of large sets find them.
    @Test func distinctValuesAndLargeSetsCompareAsBefore() {
        let numbers: [PredicateValue] = [.integer(1), .double(1.0), .bool(true), .double(-0.0), .integer(0), .string("1"), .null, .null]
        let kept = KeyValueCoding.distinct(numbers)
        #expect(kept.count == 4)
        #expect(ValueComparison.equal(kept[0], .integer(1)) && ValueComparison.equal(kept[1], .double(0)))
        #expect(kept[2].attributeValue?.stringValue == "1" && kept[3].isNull)
        let members = (0..<100).map { PredicateValue.integer(Int64($0)) }
        #expect(ValueComparison.equal(.set(members), .set(members.reversed())))
        #expect(!ValueComparison.equal(.set(members), .set(members.dropLast() + [.integer(100)])))
        #expect(ValueComparison.equal(.set(members.map { .double(Double($0.attributeValue?.doubleValue ?? 0)) }), .set(members)))
        #expect(KeyValueCoding.distinct([.set(members), .set(members.reversed()), .array(members), .array(members.reversed())]).count == 3)
    }
}
