import Foundation
import GraphStore
import Testing

@testable import GraphStoreShell
import TestScratch

/// Golden output of `fetch`, `count`, `explain` and `.sql`, driving a shell on a store.
@Suite("REPL fetch commands")
struct FetchCommandTests {
    final class Capture {
        var text = ""
    }

    let shell: Shell
    let capture = Capture()

    /// A store made with a model that has a fetch index; the shell opens it read-only and
    /// infers the model from the schema.
    init() throws {
        let directory = try ScratchDirectory.make("graphstore-shell")
        let path = directory.appendingPathComponent("books.sqlite").path
        let model = try ManagedObjectModel {
            EntityDescription("Category") {
                AttributeDescription("name", .string)
                RelationshipDescription("books", to: "Book", inverse: "category", toMany: true)
            }
            EntityDescription("Book") {
                AttributeDescription("title", .string)
                AttributeDescription("pages", .integer32)
                RelationshipDescription("category", to: "Category", inverse: "books")
                FetchIndex("byTitle", ["title"])
            }
        }
        let store = try PersistentStore.create(at: path, model: model)
        let context = ManagedObjectContext(store: store)
        let fiction = try context.insert("Category")
        try fiction.set("name", "Fiction")
        let history = try context.insert("Category")
        try history.set("name", "History")
        for (title, pages, category) in [("Dune", 412, fiction), ("Emma", 474, fiction), ("SPQR", 608, history), ("Dracula", nil, fiction)] {
            let book = try context.insert("Book")
            try book.set("title", title)
            try book.set("pages", pages.map(Int64.init))
            try book.setObject(category, forKey: "category")
        }
        try context.save()
        try store.checkpoint()
        let capture = self.capture
        shell = Shell(output: { capture.text += $0 }, diagnostics: { capture.text += $0 })
        try shell.open(path: path)
    }

    func run(_ lines: String...) throws -> String {
        capture.text = ""
        for line in lines { try shell.execute(line) }
        return capture.text
    }

    @Test func fetchWithPredicateSortAndLimit() throws {
        #expect(try run("fetch Book where title BEGINSWITH 'D' OR pages > 600 sort title desc limit 2") == """
            +---------+-------+-------+-------------+
            | object  | pages | title | category    |
            +---------+-------+-------+-------------+
            | Book p3 | 608   | SPQR  | Category p2 |
            | Book p1 | 412   | Dune  | Category p1 |
            +---------+-------+-------+-------------+

            """)
    }

    @Test func fetchSortedThroughAToOneWithOffset() throws {
        #expect(try run("fetch Book sort category.name, pages desc offset 1") == """
            +---------+-------+---------+-------------+
            | object  | pages | title   | category    |
            +---------+-------+---------+-------------+
            | Book p1 | 412   | Dune    | Category p1 |
            | Book p4 |       | Dracula | Category p1 |
            | Book p3 | 608   | SPQR    | Category p2 |
            +---------+-------+---------+-------------+

            """)
    }

    @Test func countAndClauseWordsInsideStrings() throws {
        #expect(try run("count Book where category.name == 'Fiction'") == """
            +-------+
            | count |
            +-------+
            | 3     |
            +-------+

            """)
        #expect(try run("count Book where title IN {'sort', 'limit 1'} OR title == \"where\"").contains("| 0     |"))
    }

    @Test func sqlEchoShowsStatementBindingsAndInMemoryPart() throws {
        #expect(try run(".sql on", "fetch Category where ANY books.pages > 450 sort name") == """
            -- sql: SELECT t0.Z_PK, t0.Z_ENT, t0.Z_OPT, t0.ZNAME, t0.ZNAME FROM ZCATEGORY t0 WHERE EXISTS (SELECT 1 FROM ZBOOK t1 WHERE t1.ZCATEGORY = t0.Z_PK AND t1.ZPAGES > ?) ORDER BY t0.ZNAME, t0.Z_PK
            -- bindings: [450]
            +-------------+---------+
            | object      | name    |
            +-------------+---------+
            | Category p1 | Fiction |
            | Category p2 | History |
            +-------------+---------+

            """)
        #expect(try run("count Book where title.length > 4") == """
            -- sql: SELECT t0.Z_PK, t0.Z_ENT, t0.Z_OPT, t0.ZPAGES, t0.ZTITLE, t0.ZCATEGORY FROM ZBOOK t0
            -- in memory: title.length > 4
            +-------+
            | count |
            +-------+
            | 1     |
            +-------+

            """)
        #expect(try run(".sql off", ".sql", "count Book") == """
            sql echo is off
            +-------+
            | count |
            +-------+
            | 4     |
            +-------+

            """)
    }

    @Test func explainShowsTheIndexSearch() throws {
        #expect(try run("explain fetch Book where title BEGINSWITH 'Dr' AND pages == nil") == """
            -- sql: SELECT t0.Z_PK, t0.Z_ENT, t0.Z_OPT, t0.ZPAGES, t0.ZTITLE, t0.ZCATEGORY FROM ZBOOK t0 WHERE t0.ZTITLE >= ? AND t0.ZTITLE < ? AND (t0.ZTITLE < ? OR GS_BEGINSWITH(t0.ZTITLE, ?, ?)) AND t0.ZPAGES IS NULL
            -- bindings: ['Dr', 'Ds', 'Dr' || char(128), 'Dr', 0]
            QUERY PLAN
            `--SEARCH t0 USING INDEX Z_Book_byTitle (ZTITLE>? AND ZTITLE<?)

            """)
        let count = try run("explain count Category where books.@count > 1")
        #expect(count.hasPrefix("-- sql: SELECT COUNT(*) FROM ZCATEGORY t0 WHERE (SELECT COUNT(*) FROM ZBOOK t1 WHERE t1.ZCATEGORY = t0.Z_PK) > ?\n"))
        #expect(count.contains("CORRELATED SCALAR SUBQUERY"))
    }

    @Test func errorsNameWhatIsWrong() throws {
        #expect(throws: FetchError.unknownKeyPath(entity: "Book", keyPath: "titel", key: "titel")) { try run("fetch Book where titel == 'x'") }
        #expect(capture.text.isEmpty, "nothing is printed before a bad key path is found")
        let messages = [
            // The column counts from the start of the line, and the caret stands under it there.
            ("fetch Book where title ==", "fetch: bad predicate at column 26: expected a value after '=='\n  fetch Book where title ==\n                           ^"),
            ("fetch Book sort title sideways", "sort: expected asc, desc or nocase after title, not sideways"),
            ("fetch Book limit x", "limit must be a whole number, not x"),
            ("fetch", "usage: fetch ENTITY [where PREDICATE] [sort KEY [asc|desc] [nocase], …] [limit N] [offset N]"),
            ("explain delete Book", "usage: explain fetch|count ENTITY [where PREDICATE] [sort KEY [asc|desc] [nocase], …] [limit N] [offset N]"),
            ("count Nope", "no entity named Nope; entities: Book, Category"),
        ]
        for (line, message) in messages {
            #expect(throws: ShellError.self) { try run(line) }
            do { try shell.execute(line) } catch { #expect("\(error)" == message) }
        }
    }

    /// A bad predicate is shown around the error with a caret under the column, which
    /// counts from the start of the line; a 1,000-term chain is cut to an excerpt, wherever
    /// the error is.
    @Test func badPredicatesPointAtTheErrorInAReadableExcerpt() throws {
        let chain = (0..<1000).map { "price == \($0)" }.joined(separator: " AND ")
        for (predicate, column) in [(chain + " AND price ==", chain.count + 14), ("price == AND " + chain, 10)] {
            let line = "fetch Book where " + predicate
            let lineColumn = column + "fetch Book where ".count
            do {
                try shell.execute(line)
                Issue.record("the predicate is malformed")
            } catch {
                let lines = "\(error)".split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                #expect(lines.count == 3)
                #expect(lines[0].hasPrefix("fetch: bad predicate at column \(lineColumn): expected a value after '=='"))
                #expect(lines[1].count <= TextExcerpt.defaultWidth + 4, "\(lines[1].count) characters")
                // The caret stands under the token the column names.
                let caret = try #require(lines[2].firstIndex(of: "^")).utf16Offset(in: lines[2])
                let atCaret = lines[1].unicodeScalars.dropFirst(caret)
                let atColumn = line.unicodeScalars.dropFirst(lineColumn - 1)
                #expect(String(atCaret.prefix(3)) == String(atColumn.prefix(3)))
            }
        }
        let quote = try #require(throws: ShellError.self) { try shell.execute("fetch Book where " + chain + " AND title == 'x") }
        #expect(quote.message.count < TextExcerpt.defaultWidth + 40)
        #expect(quote.message.hasSuffix("AND price == 999 AND title == 'x"))
    }

    @Test func aCombiningMarkAfterAClosingQuoteIsNotAnUnterminatedQuote() throws {
        do {
            try shell.execute("fetch Book where title == \"cafe\"\u{301}")
            Issue.record("the mark outside the quotes is not a token")
        } catch {
            #expect("\(error)".hasPrefix("fetch: bad predicate at column 33: unexpected character '\\u{0301}'"))
        }
        _ = try run("fetch Book where title == \"cafe\u{301}\"")
        _ = try run("fetch Book where title == '👨‍👩‍👧' sort title")
    }

    @Test func helpListsTheCommands() throws {
        let help = try run(".help")
        for usage in ["fetch ENTITY [where PREDICATE]", "count ENTITY [where PREDICATE]", "explain fetch|count ENTITY", ".sql [on|off | STATEMENT]", "sql STATEMENT"] {
            #expect(help.contains(usage))
        }
    }
}
