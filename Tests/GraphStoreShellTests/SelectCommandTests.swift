import Foundation
import GraphStore
import Testing

@testable import GraphStoreShell
import TestScratch

/// `fetch ENTITY select … group by … having …`: dictionary fetches from the REPL, in every
/// output mode.
@Suite("REPL fetch select: chosen columns, aggregates, groups")
struct SelectCommandTests {
    let shell: CapturedShell

    init() throws {
        shell = try CapturedShell(store: try BrokenStores.copy(ShellFixtures.exampleStore))
    }

    @Test func chosenColumnsThroughAToOneWithWhereAndSort() throws {
        #expect(try shell.run(lines: "fetch Book select title, price, category.name where price > 5 sort price desc, title") == """
            +-----------------+-------+---------------+
            | title           | price | category.name |
            +-----------------+-------+---------------+
            | The second book | 15    | Fiction       |
            | The first book  | 10    | Fiction       |
            | The third book  | 10    | Biography     |
            +-----------------+-------+---------------+

            """)
    }

    @Test func clauseWordsAsKeysAreEscapedWithAHash() throws {
        #expect(try shell.run(lines: ".mode csv", "fetch Book select #title where #title BEGINSWITH 'The f' group by #title") == "title\nThe first book\n")
    }

    @Test func groupedAggregatesWithHavingInOneQuery() throws {
        #expect(try shell.run(lines: ".sql on", "fetch Book select category.name, count(), avg(price) group by category.name having count() > 1") == """
            -- sql: SELECT t1.ZNAME, COUNT(*), AVG(t0.ZPRICE) FROM ZBOOK t0 LEFT JOIN ZBOOKCATEGORY t1 ON t1.Z_PK = t0.ZCATEGORY GROUP BY t1.ZNAME
            +---------------+---------+------------+
            | category.name | count() | avg(price) |
            +---------------+---------+------------+
            | Fiction       | 2       | 12.5       |
            +---------------+---------+------------+

            """)
        // An aggregate only named by having or sort is computed, not shown.
        #expect(try shell.run(lines: ".sql off", ".mode csv", "fetch Book select category.name group by category.name having sum(price) < 20 sort count() desc") == """
            category.name
            Biography

            """)
    }

    @Test func distinctAndEveryMode() throws {
        #expect(try shell.run(lines: ".mode csv", "fetch Book select distinct category.name sort category.name") == "category.name\nBiography\nFiction\n")
        #expect(try shell.run(lines: ".mode json", "fetch Book select category, count() group by category sort count()") == """
            [
            {"category":"BookCategory/p2","count()":1},
            {"category":"BookCategory/p1","count()":2}
            ]

            """)
        #expect(try shell.run(lines: ".mode line", "fetch Book select count(), sum(price), min(title)") == """
               count() = 3
            sum(price) = 35
            min(title) = The first book

            """)
    }

    @Test func mistakesAreSentencesNamingWhatWasTyped() throws {
        #expect(shell.failure(of: "fetch Book select title group by category.name") != "no error")
        #expect(shell.failure(of: "fetch Book select sum(title)") == "cannot fetch sum(title) of Book: sum: needs a number, and title is String")
        #expect(shell.failure(of: "fetch Book group by title") == "fetch: group by and having need a select clause (fetch ENTITY select …)")
        #expect(shell.failure(of: "fetch Book select avg()") == "select: avg() needs a key path, as in avg(price)")
        #expect(shell.failure(of: "count Book select title") == "count: select is for fetch (fetch ENTITY select count() …)")
    }
}
