import Foundation
import Testing
import TestScratch

@testable import GraphStore

/// An SQLite file that is no Core Data store, opened read-only for its tables and SQL.
@Suite struct PlainSQLiteFileTests {
    /// A plain SQLite file, as an app that uses SQLite directly writes one.
    static func plainFile(walRows: Bool = false) throws -> String {
        let path = try ScratchDirectory.make("plain").appendingPathComponent("banks.sqlite").path
        let file = try SQLiteFile(path)
        try file.execute("""
            CREATE TABLE failed_banks (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT, state TEXT);
            INSERT INTO failed_banks (name, state) VALUES ('Desert Hills Bank', 'AZ'), ('Unity National Bank', 'GA');
            """)
        guard walRows else { return path }
        try file.execute("PRAGMA journal_mode = WAL; INSERT INTO failed_banks (name, state) VALUES ('In the log', 'CA')")
        // Copied while the connection is open, so the row stays in the -wal.
        let copy = try ScratchDirectory.make("plain-wal").appendingPathComponent("banks.sqlite").path
        for suffix in ["", "-wal", "-shm"] { try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix) }
        return copy
    }

    @Test func itsTablesAndSQLAreRead() throws {
        let path = try Self.plainFile()
        let before = BrokenStores.bytes(of: path)
        #expect(throws: StoreError.notCoreData(path: path, missing: ["Z_PRIMARYKEY", "Z_METADATA"])) { try PersistentStore(path: path) }
        let file = try PlainSQLiteFile(path: path)
        #expect(file.tableNames == ["failed_banks"])
        var columns: [String] = []
        var rows: [[SQLiteValue]] = []
        try file.forEachRow(ofTable: "FAILED_BANKS", limit: 1, columns: { columns = $0 }) { rows.append($0) }
        #expect(columns == ["id", "name", "state"])
        #expect(rows == [[.integer(1), .text("Desert Hills Bank"), .text("AZ")]])
        var count: [[SQLiteValue]] = []
        try file.forEachRow(readOnlySQL: "SELECT count(*) FROM failed_banks WHERE state = 'GA'") { count.append($0) }
        #expect(count == [[.integer(1)]])
        #expect(throws: ReadOnlySQLError.self) { try file.forEachRow(readOnlySQL: "DELETE FROM failed_banks") { _ in } }
        #expect(throws: ReadOnlySQLError.noSuchTable("nope", tables: ["failed_banks"])) { try file.forEachRow(ofTable: "nope") { _ in } }
        #expect(BrokenStores.bytes(of: path) == before)
    }

    /// A log beside it is read from a private copy: its rows are there, its files unchanged.
    @Test func aFileWithALogIsReadWithoutTouchingIt() throws {
        let path = try Self.plainFile(walRows: true)
        let before = BrokenStores.bytes(of: path)
        #expect(before.keys.sorted() == ["", "-shm", "-wal"])
        let file = try PlainSQLiteFile(path: path)
        var names: [[SQLiteValue]] = []
        try file.forEachRow(readOnlySQL: "SELECT name FROM failed_banks ORDER BY id DESC LIMIT 1") { names.append($0) }
        #expect(names == [[.text("In the log")]])
        // It attaches another file as a store does.
        try file.forEachRow(readOnlySQL: "ATTACH '\(Fixtures.exampleStore)' AS books") { _ in }
        var books: [[SQLiteValue]] = []
        try file.forEachRow(readOnlySQL: "SELECT count(*) FROM books.ZBOOK") { books.append($0) }
        #expect(books == [[.integer(3)]])
        #expect(BrokenStores.bytes(of: path) == before)
    }

    @Test func aFileThatIsNoDatabaseIsRefused() throws {
        let path = try ScratchDirectory.make("plain").appendingPathComponent("notes.txt").path
        try String(repeating: "not SQLite ", count: 20).write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: StoreError.notADatabase(path: path, reason: "no SQLite header")) { try PlainSQLiteFile(path: path) }
    }
}
