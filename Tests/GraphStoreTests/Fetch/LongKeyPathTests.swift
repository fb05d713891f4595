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

}
