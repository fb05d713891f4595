import Foundation
import Testing
@testable import GraphStore

/// `FUNCTION` with a string receiver (`FUNCTION('abc', 'uppercaseString')`,
/// `FUNCTION(title, 'lowercaseString')`, `FUNCTION(name, 'stringByAppendingString:', 'x')`):
/// parsed and printed as `NSPredicate(format:)` does, evaluated in memory, and in a fetch
/// answered as the evaluator answers.
@Suite struct StringFunctionTests {
    let context: ManagedObjectContext

    /// Moby Dick (12), Émile (8), nil title (5), "" (3). Saved.
    init() throws {
        context = ManagedObjectContext(store: try PersistentStore.create(at: try Fixtures.newStorePath(), model: try Fixtures.bookStoreModel()))
        for (title, price) in [("Moby Dick", 12.0), ("Émile", 8), (nil, 5), ("", 3)] as [(String?, Double)] {
            let book = try context.insert("Book")
            try book.set("title", title)
            try book.set("price", price)
        }
        try context.save()
    }

    /// The prices of the books a fetch returns, checked against evaluating the predicate on
    /// every book in memory; and the fetch's SQL.
    private func fetch(_ format: String) throws -> (prices: [Float], sql: GeneratedSQL) {
        let predicate = try ObjectPredicate(format: format)
        var request = FetchRequest(entityName: "Book", predicate: predicate)
        request.sortKeys = [SortKey("price")]
        let fetched = try context.fetch(request)
        let all = try context.fetch(FetchRequest(entityName: "Book", sortKeys: [SortKey("price")]))
        let expected = try all.filter { try predicate.evaluate(with: $0) }
        #expect(fetched.map(\.objectID) == expected.map(\.objectID), "\(format)")
        #expect(try context.count(for: request) == expected.count)
        return (try fetched.map { try $0.get("price", as: Float.self) ?? 0 }, try context.store.sql(for: request))
    }

    @Test(arguments: [
        (#"FUNCTION('abc', 'uppercaseString') == 'ABC'"#, #"FUNCTION("abc", "uppercaseString") == "ABC""#),
        (#"FUNCTION(title, 'lowercaseString') == 'moby dick'"#, #"FUNCTION(title, "lowercaseString") == "moby dick""#),
        (#"FUNCTION(name, 'stringByAppendingString:', 'x') == 'ax'"#, #"FUNCTION(name, "stringByAppendingString:", "x") == "ax""#),
        (#"function(title, 'length') > 4"#, #"FUNCTION(title, "length") > 4"#),
    ])
    func parsesAndPrintsCanonically(_ format: String, _ canonical: String) throws {
        let predicate = try ObjectPredicate(format: format)
        #expect(predicate.predicateFormat == canonical)
        #expect(try ObjectPredicate(format: canonical).predicateFormat == canonical)
    }

    @Test func evaluatesInMemoryAsFoundationDoes() throws {
        #expect(try ObjectPredicate(format: "FUNCTION('abc', 'uppercaseString') == 'ABC'").evaluate(with: [:]))
        #expect(try ObjectPredicate(format: "FUNCTION(title, 'lowercaseString') == 'moby dick'").evaluate(with: ["title": "Moby Dick"]))
        #expect(try ObjectPredicate(format: "FUNCTION(name, 'stringByAppendingString:', 'x') == 'ax'").evaluate(with: ["name": "a"]))
        #expect(try !ObjectPredicate(format: "FUNCTION(name, 'stringByAppendingString:', 'x') == 'ax'").evaluate(with: [:]))
        #expect(try ObjectPredicate(format: "FUNCTION(title, 'hasPrefix:', 'Mo') == YES").evaluate(with: ["title": "Moby Dick"]))
        #expect(throws: PredicateEvaluationError.self) { try ObjectPredicate(format: "FUNCTION(title, 'noSuchSelector') == 1").evaluate(with: ["title": "x"]) }
    }

    /// A constant receiver is folded once; a string method on a string attribute runs in SQL
    /// (`GS_FUNCTION`, the evaluator's code), anything else in memory: the evaluator's answer
    /// either way.
    @Test func fetchesAnswerAsTheEvaluator() throws {
        var result = try fetch("FUNCTION('abc', 'uppercaseString') == 'ABC' AND price > 4")
        #expect(result.prices == [5, 8, 12])
        #expect(result.sql.inMemoryPredicate == nil && !result.sql.sql.contains("GS_FUNCTION"))
        for (format, prices) in [
            ("FUNCTION(title, 'lowercaseString') == 'moby dick'", [12]),
            ("FUNCTION(title, 'uppercaseString') == 'ÉMILE'", [8]),
            ("FUNCTION(title, 'capitalizedString') == 'Moby Dick'", [12]),
            ("FUNCTION(title, 'stringByAppendingString:', '!') == 'Moby Dick!'", [12]),
            ("FUNCTION(title, 'stringByReplacingOccurrencesOfString:withString:', ' ', '') == 'MobyDick'", [12]),
            ("FUNCTION(title, 'length') == 0", [3]),
            ("FUNCTION(title, 'length') >= 5", [8, 12]),
            ("FUNCTION(title, 'hasPrefix:', 'Mo') == YES OR price < 4", [3, 12]),
            ("FUNCTION(title, 'hasSuffix:', 'le') == NO", [3, 12]),
            ("FUNCTION(title, 'lowercaseString') != 'moby dick'", [3, 5, 8]),
            ("NOT FUNCTION(title, 'containsString:', 'y') == YES", [3, 5, 8]),
            ("FUNCTION(category.name, 'uppercaseString') == nil", [3, 5, 8, 12]),
            ("FUNCTION(title, 'lowercaseString') BEGINSWITH 'mo'", [12]),
        ] as [(String, [Float])] {
            result = try fetch(format)
            #expect(result.prices == prices, "\(format)")
            #expect(result.sql.inMemoryPredicate == nil, "\(format)")
            #expect(result.sql.sql.contains("GS_FUNCTION("), "\(format)")
        }
        // Other selectors, and arguments that are not string constants, are finished in memory.
        for (format, prices) in [
            ("FUNCTION(title, 'description') == 'Émile'", [8]),
            ("FUNCTION(title, 'stringByAppendingString:', title) == 'ÉmileÉmile'", [8]),
        ] as [(String, [Float])] {
            result = try fetch(format)
            #expect(result.prices == prices, "\(format)")
            #expect(result.sql.inMemoryPredicate != nil, "\(format)")
        }
    }
}
