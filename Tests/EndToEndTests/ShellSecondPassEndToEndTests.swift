import Foundation
import Testing
import TestScratch

/// The newcomer's list from the issue "The shell, second pass", tried again with the built
/// binary as a sqlite3 or psql user would, on the corpus's real stores where it has them.
@Suite struct ShellSecondPassEndToEndTests {
    static let corpus = GraphStoreBinary.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")

    /// A corpus file, or nil after saying the test skipped (an error under GRAPHSTORE_REQUIRE_CORPUS=1).
    static func corpusFile(_ relative: String, test: String = #function) -> String? {
        let path = corpus.appendingPathComponent(relative).path
        if FileManager.default.fileExists(atPath: path) { return path }
        if ProcessInfo.processInfo.environment["GRAPHSTORE_REQUIRE_CORPUS"] == "1" { Issue.record("../shared/corpus is required but missing") }
        print("skipped \(test): ../shared/corpus is not present")
        return nil
    }

    /// The Surf Journal seed (nvovap/SurfJournal: SurJournal/CoreDataSeed/SurfJournalDatabase.sqlite):
    /// 5,000 journal entries.
    static let surfJournal = "stores/nvovap__SurfJournal/SurJournal/CoreDataSeed/SurfJournalDatabase.sqlite"
    /// A plain SQLite file, no Core Data store (neolee/FailedBanksCD: Data/banklist.sqlite3).
    static let bankList = "stores/_not_coredata/neolee__FailedBanksCD/Data/banklist.sqlite3"

    /// `printf 'fetch JournalEntry select location, count()\n group by location\n' | graphstore S`
    /// groups, as psql would read the two lines as one statement.
    @Test func aFetchContinuedOnTheNextLineGroups() throws {
        guard let store = Self.corpusFile(Self.surfJournal) else { return }
        let result = try GraphStoreBinary.run(["--csv", store], input: "fetch JournalEntry select location, count()\n group by location\n sort count() desc limit 2\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "location,count()\nC Street,546\nJ-Bay,519\n")
        // Its error names the line the bad key is on.
        let wrong = try GraphStoreBinary.run([store], input: "fetch JournalEntry\n  where locaton == 'x'\n")
        #expect(wrong.stderr.hasPrefix("stdin:2: entity JournalEntry has no key locaton; did you mean location?\n    where locaton == 'x'\n          ^\n"))
    }

    /// `select count(*) from ZJOURNALENTRY;` runs at the prompt as sqlite3 runs it.
    @Test func sqlTypedBareRuns() throws {
        guard let store = Self.corpusFile(Self.surfJournal) else { return }
        let result = try GraphStoreBinary.run(["--list", "--no-headers", store], input: "select count(*)\n  from ZJOURNALENTRY;\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "5000\n")
    }

    /// A seed compared with a user's store in one query: neither file changes.
    @Test func aSeedIsAttachedReadOnly() throws {
        guard let seed = Self.corpusFile("stores/Apress__pro-ios-persistence/Ch04/BookStore/BookStore/seed.sqlite") else { return }
        let store = try BrokenStores.copy(GraphStoreBinary.exampleStore)
        let before = (BrokenStores.bytes(of: seed), BrokenStores.bytes(of: store))
        let script = """
            attach '\(seed)' as seed;
            select (select count(*) from main.ZBOOK) as mine, (select count(*) from seed.ZBOOK) as seeds;
            sql ATTACH '\(store)' AS again
            """
        let result = try GraphStoreBinary.run(["--write", "--no-bail", "--csv", store], input: script + "\n")
        #expect(result.stdout == "mine,seeds\n3,4\n")
        #expect(result.stderr == "stdin:3: cannot attach \(store): it is the open store's own file, already there as main\n")
        #expect(BrokenStores.bytes(of: seed) == before.0)
        #expect(BrokenStores.bytes(of: store) == before.1)
    }

    /// `graphstore banklist.sqlite3 'sql select 1'` opens the plain SQLite file, with a note,
    /// for sql, .rows and .schema; other commands say why they cannot run.
    @Test func aPlainSQLiteFileOpens() throws {
        guard let file = Self.corpusFile(Self.bankList) else { return }
        let before = BrokenStores.bytes(of: file)
        let result = try GraphStoreBinary.run(["--csv", file, "sql select 1", ".rows failed_banks 1", ".schema"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "graphstore: note: banklist.sqlite3 is a plain SQLite file, not a Core Data store (no Z_PRIMARYKEY or Z_METADATA): opened read-only for sql, .rows and .schema\n")
        #expect(result.stdout.hasPrefix("1\n1\nid,name,city,state,zip,close_date,updated_date\n1,Desert Hills Bank,Phoenix,AZ,57060,"))
        #expect(result.stdout.contains("CREATE TABLE failed_banks("))
        let fetch = try GraphStoreBinary.run([file, ".entities"])
        #expect(fetch.status == 1)
        #expect(fetch.stderr.hasSuffix("graphstore: banklist.sqlite3 is a plain SQLite file, not a Core Data store: only sql (or SQL typed bare), .rows and .schema read it\n"))
        #expect(BrokenStores.bytes(of: file) == before)
    }

    /// `fetch X wher …` says which clause was meant; messages of commands typed after the
    /// store are not named as lines of a `-c` never given.
    @Test func smallerItems() throws {
        let store = GraphStoreBinary.exampleStore
        let wher = try GraphStoreBinary.run([store, "fetch Book wher price > 1"])
        #expect(wher.stderr == "graphstore: fetch: wher is no clause; did you mean where?\n")
        let diff = try GraphStoreBinary.run([store, "diff /nonexistent/seed.sqlite"])
        #expect(diff.stderr == "graphstore: diff: /nonexistent/seed.sqlite: no such file\n")
        let verify = try GraphStoreBinary.run([store, ".print ok", "verify --expect /nonexistent/expect.txt"])
        #expect(verify.stderr == "graphstore: command 2: verify: cannot read /nonexistent/expect.txt\n")
        // -c keeps its lines.
        let dashC = try GraphStoreBinary.run([store, "-c", "verify --expect /nonexistent/expect.txt"])
        #expect(dashC.stderr == "-c:1: verify: cannot read /nonexistent/expect.txt\n")
    }

    /// A MATCHES with nested stars over 5,000 rows (30 s before) stops at the command's
    /// budget, naming the pattern and pointing at it.
    @Test func aSlowPatternStopsAtTheCommandsBudget() throws {
        guard let store = Self.corpusFile(Self.surfJournal) else { return }
        let command = "count JournalEntry where location MATCHES '(.*)*(.*)*x'"
        let result = try GraphStoreBinary.run([store, command])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == """
            graphstore: MATCHES '(.*)*(.*)*x' went past the budget of one operation: 100000000 steps of MATCHES and LIKE over all the strings compared (narrow the fetch with another condition, or simplify the pattern)
              \(command)
                                                         ^

            """)
    }
}
