import Foundation
import Testing
import TestScratch

@testable import GraphStore

/// Read-only SQL on a store's file, and the rows of any of its tables.
@Suite struct ReadOnlySQLTests {
    /// The example store with a join table and the persistent-history tables, as Core Data
    /// makes them, beside its entities.
    static func storeWithMoreTables() throws -> String {
        try BrokenStores.changed(Fixtures.exampleStore, sql: """
            CREATE TABLE Z_1TAGS (Z_1BOOKS INTEGER, Z_4TAGS INTEGER, PRIMARY KEY (Z_1BOOKS, Z_4TAGS));
            INSERT INTO Z_1TAGS VALUES (1, 7), (2, 7), (3, 8);
            CREATE TABLE ATRANSACTION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTIMESTAMP TIMESTAMP, ZAUTHOR VARCHAR);
            INSERT INTO ATRANSACTION VALUES (1, 16001, 1, 700000000.5, 'app');
            CREATE TABLE ACHANGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER);
            INSERT INTO ACHANGE VALUES (1, 16002, 1, 0, 1, 1);
            """)
    }

    /// Every row of a table, with its column names.
    static func rows(_ store: PersistentStore, table: String, limit: Int? = nil) throws -> (columns: [String], rows: [[SQLiteValue]]) {
        var columns: [String] = []
        var rows: [[SQLiteValue]] = []
        try store.forEachRow(ofTable: table, limit: limit, columns: { columns = $0 }) { rows.append($0) }
        return (columns, rows)
    }

    @Test func anyTableOfTheFileIsRead() throws {
        let store = try PersistentStore(path: try Self.storeWithMoreTables())
        let keys = try Self.rows(store, table: "z_primarykey")
        #expect(keys.columns == ["Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX"])
        #expect(keys.rows.map { $0[1] } == [.text("Book"), .text("BookCategory"), .text("Page")])
        let tags = try Self.rows(store, table: "Z_1TAGS", limit: 2)
        #expect(tags.rows == [[.integer(1), .integer(7)], [.integer(2), .integer(7)]])
        #expect(try Self.rows(store, table: "ATRANSACTION").rows == [[.integer(1), .integer(16001), .integer(1), .real(700000000.5), .text("app")]])
        #expect(try Self.rows(store, table: "achange").rows.count == 1)
        #expect(try Self.rows(store, table: "Z_METADATA").rows.first?[2].typeName == "blob")
        #expect(store.tableNames.contains("Z_1TAGS") && store.tableNames.contains("ATRANSACTION") && !store.tableNames.contains("sqlite_sequence"))
        #expect(throws: ReadOnlySQLError.noSuchTable("Nope", tables: store.tableNames)) { try Self.rows(store, table: "Nope") }
        #expect(throws: ReadOnlySQLError.self) { try Self.rows(store, table: "sqlite_master") }
    }

    @Test func queriesReadWithTheirColumnNames() throws {
        let store = try PersistentStore(path: Fixtures.exampleStore)
        var columns: [String] = []
        var rows: [[SQLiteValue]] = []
        try store.forEachRow(readOnlySQL: "SELECT Z_NAME AS name, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT;", columns: { columns = $0 }) { rows.append($0) }
        #expect(columns == ["name", "Z_MAX"])
        #expect(rows == [[.text("Book"), .integer(3)], [.text("BookCategory"), .integer(2)], [.text("Page"), .integer(0)]])
        // Reading statements of every kind.
        for sql in [
            "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 3) SELECT x FROM n",
            "EXPLAIN QUERY PLAN SELECT * FROM ZBOOK", "PRAGMA table_info(ZBOOK)", "PRAGMA user_version", "SELECT 1; -- done",
        ] {
            try store.forEachRow(readOnlySQL: sql) { _ in }
        }
    }

    /// A statement that would write is refused by SQLite before it runs, on a store opened
    /// for writing too: not one row, not one byte of the file changes.
    @Test func writesAreRefusedOnAStoreOpenedForWriting() throws {
        let path = try BrokenStores.copy(Fixtures.exampleStore)
        let store = try PersistentStore(path: path, readOnly: false)
        let before = BrokenStores.bytes(of: path)
        let writes = [
            "DELETE FROM ZBOOK", "UPDATE ZBOOK SET ZPRICE = 0", "INSERT INTO ZBOOK (Z_PK) VALUES (99)", "REPLACE INTO Z_PRIMARYKEY VALUES (1, 'x', 0, 0)",
            "DROP TABLE ZBOOK", "CREATE TABLE T (A)", "CREATE TEMP TABLE T (A)", "CREATE INDEX I ON ZBOOK (ZTITLE)", "ALTER TABLE ZBOOK ADD COLUMN X",
            "PRAGMA user_version = 3", "PRAGMA journal_mode = DELETE", "PRAGMA wal_checkpoint", "BEGIN", "SAVEPOINT s", "VACUUM", "ANALYZE",
            "ATTACH '/tmp/other.sqlite' AS other", "WITH gone AS (SELECT 1) DELETE FROM ZBOOK",
        ]
        for sql in writes {
            #expect(throws: ReadOnlySQLError.self, "\(sql)") { try store.forEachRow(readOnlySQL: sql) { _ in } }
        }
        #expect(throws: ReadOnlySQLError.notReadOnly(action: "DELETE on ZBOOK")) { try store.forEachRow(readOnlySQL: "DELETE FROM ZBOOK") { _ in } }
        #expect(try store.count(of: try store.mapping(for: "Book")) == 3)
        let after = BrokenStores.bytes(of: path)
        #expect(after[""] == before[""])
        #expect(after["-wal"] == before["-wal"])
        #expect(!store.connection.isInTransaction)
        // The store still writes through its own API.
        let context = ManagedObjectContext(store: store)
        try context.insert("Book").set("title", "Still writable")
        try context.save()
    }

    /// A PRAGMA that only reports runs, judged by its name (SQLite's own read-only flag
    /// calls `PRAGMA journal_mode` a write); setting one, or one that acts even without an
    /// argument, is refused, and the file does not change.
    @Test func reportingPragmasRunAndActingOnesAreRefused() throws {
        let path = try BrokenStores.copy(Fixtures.exampleStore)
        let before = BrokenStores.bytes(of: path)
        for readOnly in [true, false] {
            // Opened read-only first: that pass must leave every byte as it was.
            if !readOnly { #expect(BrokenStores.bytes(of: path) == before) }
            let store = try PersistentStore(path: path, readOnly: readOnly)
            var rows: [[SQLiteValue]] = []
            try store.forEachRow(readOnlySQL: "PRAGMA journal_mode") { rows.append($0) }
            #expect(rows.count == 1)
            for sql in [
                "PRAGMA page_size", "PRAGMA main.page_size", "PRAGMA table_info(ZBOOK)", "PRAGMA table_info('ZBOOK')", "pragma Index_List(ZBOOK)",
                "PRAGMA foreign_keys", "PRAGMA synchronous", "PRAGMA cache_size", "PRAGMA integrity_check", "PRAGMA quick_check(5)",
                "PRAGMA freelist_count", "PRAGMA locking_mode", "SELECT name FROM pragma_table_info('ZBOOK')",
            ] {
                #expect(throws: Never.self, "\(sql)") { try store.forEachRow(readOnlySQL: sql) { _ in } }
            }
            for sql in [
                "PRAGMA journal_mode = DELETE", "PRAGMA journal_mode(DELETE)", "PRAGMA page_size = 1024", "PRAGMA foreign_keys = ON",
                "PRAGMA optimize", "PRAGMA wal_checkpoint", "PRAGMA wal_checkpoint(TRUNCATE)", "PRAGMA incremental_vacuum",
                "PRAGMA shrink_memory", "PRAGMA user_version = 7", "PRAGMA case_sensitive_like = 1", "PRAGMA writable_schema",
            ] {
                #expect(throws: ReadOnlySQLError.self, "\(sql)") { try store.forEachRow(readOnlySQL: sql) { _ in } }
            }
            #expect(throws: ReadOnlySQLError.notReadOnly(action: "PRAGMA optimize")) { try store.forEachRow(readOnlySQL: "PRAGMA optimize") { _ in } }
        }
    }

    @Test func oneStatementAtATime() throws {
        let store = try PersistentStore(path: Fixtures.exampleStore)
        #expect(throws: ReadOnlySQLError.severalStatements) { try store.forEachRow(readOnlySQL: "SELECT 1; SELECT 2") { _ in } }
        // A write hidden after a read is not run either.
        #expect(throws: ReadOnlySQLError.severalStatements) { try store.forEachRow(readOnlySQL: "SELECT 1; DELETE FROM ZBOOK") { _ in } }
        #expect(throws: ReadOnlySQLError.noStatement) { try store.forEachRow(readOnlySQL: " -- nothing") { _ in } }
        #expect(throws: SQLiteError.self) { try store.forEachRow(readOnlySQL: "SELEC 1") { _ in } }
        #expect(throws: SQLiteError.self) { try store.forEachRow(readOnlySQL: "SELECT * FROM Nope") { _ in } }
    }

    /// The persistent-history tables and a join table of real stores.
    @Test func corpusStoresShowTheirHistoryAndJoinTables() throws {
        guard let corpus = try Fixtures.requireCorpus("corpusStoresShowTheirHistoryAndJoinTables") else { return }
        let history = try PersistentStore(path: corpus.appendingPathComponent("stores/sergd2005__ResourcesManager/default.store").path)
        for table in ["ATRANSACTION", "ACHANGE", "ATRANSACTIONSTRING"] {
            #expect(try !Self.rows(history, table: table).rows.isEmpty, "\(table)")
        }
        let join = try PersistentStore(path: corpus.appendingPathComponent("stores/bignerdranch__CoreDataStack/Sample Model/Deprecated/TestModel.sqlite").path)
        #expect(try Self.rows(join, table: "Z_1BOOKS").columns == ["Z_1AUTHORS", "Z_2BOOKS"])
    }
}
