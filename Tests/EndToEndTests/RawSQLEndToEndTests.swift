import Foundation
import Testing
import TestScratch

/// `sql` and `.rows` on every table, run by the built binary: writes are refused by SQLite
/// and leave the store, its `-wal` and its `-shm` byte for byte as they were.
@Suite struct RawSQLEndToEndTests {
    static let writes = [
        "sql DELETE FROM ZBOOK", "sql UPDATE ZBOOK SET ZPRICE = 0;", ".sql DROP TABLE ZBOOK", "sql PRAGMA journal_mode = DELETE",
        "sql PRAGMA wal_checkpoint(TRUNCATE)", "sql VACUUM",
    ]

    /// A read-only store whose rows sit partly in its `-wal`: the files are compared whole,
    /// and the session's own count shows nothing was deleted even in its private copy.
    @Test func writesLeaveAStoreWithALogUntouched() throws {
        let store = try BrokenStores.withWriteAheadLog(from: GraphStoreBinary.exampleStore, name: "BookStore.sqlite")
        let before = BrokenStores.bytes(of: store)
        #expect(before.keys.sorted() == ["", "-shm", "-wal"])
        let result = try ScriptTests.run(["--no-bail", "-list", "-noheader", store] + Self.writes + ["sql SELECT count(*) FROM ZBOOK"])
        #expect(result.status == 1)
        #expect(result.stdout == "4\n")
        #expect(result.stderr.components(separatedBy: "only reading SQL may run").count == Self.writes.count + 1, "\(result.stderr)")
        // Commands typed after the store are named as commands, not as lines of a `-c` never given.
        #expect(result.stderr.contains("graphstore: command 1: only reading SQL may run: DELETE on ZBOOK would change the store, so SQLite refused it (nothing was changed)"))
        #expect(BrokenStores.bytes(of: store) == before)
    }

    /// With `--write` too: SQLite refuses, the file is as it was once graphstore has ended.
    @Test func writesAreRefusedWithWrite() throws {
        let store = try BrokenStores.copy(GraphStoreBinary.exampleStore)
        let before = BrokenStores.bytes(of: store)
        let result = try ScriptTests.run(["--write", "--no-bail", "-list", "-noheader", store] + Self.writes + ["sql SELECT count(*) FROM ZBOOK"])
        #expect(result.stdout == "3\n")
        #expect(result.stderr.contains("graphstore: command 1: only reading SQL may run: DELETE on ZBOOK would change the store"))
        #expect(BrokenStores.bytes(of: store) == before)
    }

    @Test func sqlPrintsInTheCurrentModeAndReadsOnlyOneStatement() throws {
        let store = GraphStoreBinary.exampleStore
        let json = try ScriptTests.run(["-json", store, "sql SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY WHERE Z_MAX > 0 ORDER BY Z_ENT;"])
        #expect(json.stdout == "[\n{\"Z_NAME\":\"Book\",\"Z_MAX\":3},\n{\"Z_NAME\":\"BookCategory\",\"Z_MAX\":2}\n]\n")
        // `;` ends the command: what follows is a command of its own, here SQL typed bare,
        // which runs as sql does; SQL that writes, typed bare, gets a hint.
        let two = try ScriptTests.run(["-list", store, "sql SELECT 1; SELECT 2"])
        #expect(two.status == 0)
        #expect(two.stdout == "1\n1\n2\n2\n")
        let update = try ScriptTests.run([store, "UPDATE ZBOOK SET ZPRICE = 0"])
        #expect(update.status == 1)
        #expect(update.stderr == "graphstore: unknown command UPDATE; graphstore runs only SQL that reads: SELECT, WITH, VALUES, EXPLAIN, PRAGMA that reports, ATTACH\n")
        let failed = try ScriptTests.run(["-json", store, "sql SELECT nope FROM ZBOOK"])
        #expect(failed.status == 1)
        #expect(failed.stdout.isEmpty)
        #expect(failed.stderr.contains("no such column: nope"))
    }

    /// `.rows` on the tables that are not entities: bookkeeping, join and history tables.
    @Test func rowsShowsEveryTable() throws {
        let store = try BrokenStores.changed(GraphStoreBinary.exampleStore, sql: """
            CREATE TABLE Z_1TAGS (Z_1BOOKS INTEGER, Z_4TAGS INTEGER, PRIMARY KEY (Z_1BOOKS, Z_4TAGS));
            INSERT INTO Z_1TAGS VALUES (1, 7), (2, 7), (3, 8);
            CREATE TABLE ATRANSACTION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHOR VARCHAR);
            INSERT INTO ATRANSACTION VALUES (1, 16001, 1, 'app');
            """)
        let result = try ScriptTests.run(["-csv", store, ".rows Z_PRIMARYKEY", ".rows z_1tags 2", ".rows ATRANSACTION", ".rows ZBOOKCATEGORY 1"])
        #expect(
            result.stdout == """
                Z_ENT,Z_NAME,Z_SUPER,Z_MAX
                1,Book,0,3
                2,BookCategory,0,2
                3,Page,0,0
                Z_1BOOKS,Z_4TAGS
                1,7
                2,7
                Z_PK,Z_ENT,Z_OPT,ZAUTHOR
                1,16001,1,app
                Z_PK,Z_ENT,Z_OPT,ZNAME
                1,2,1,Fiction

                """)
        let unknown = try ScriptTests.run([store, ".rows Z_1TAG"])
        #expect(unknown.stderr == "graphstore: no entity or table named Z_1TAG; did you mean Z_1TAGS?\n")
        let listed = try ScriptTests.run([store, ".rows Nope"])
        #expect(listed.stderr == "graphstore: no entity or table named Nope; entities: Book, BookCategory, Page; other tables: ATRANSACTION, Z_1TAGS, Z_METADATA, Z_PRIMARYKEY\n")
    }
}
