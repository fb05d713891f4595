import Foundation
import Testing
import TestScratch

@testable import GraphStore

/// `ATTACH` in read-only SQL: another file read beside the store, read-only, never one that
/// would be written: not one byte of it, its `-wal` or its `-shm` changes, a path that does
/// not exist is refused rather than made, and the store's own file is refused.
@Suite struct AttachTests {
    static func run(_ store: some SQLiteReading, _ sql: String) throws -> [[SQLiteValue]] {
        var rows: [[SQLiteValue]] = []
        try store.forEachRow(readOnlySQL: sql, columns: { _ in }) { rows.append($0) }
        return rows
    }

    static func refusal(_ body: () throws -> Void) -> ReadOnlySQLError? {
        do {
            try body()
        } catch let error as ReadOnlySQLError {
            return error
        } catch {
            Issue.record("expected a ReadOnlySQLError, got \(error)")
        }
        return nil
    }

    /// A seed with rows in its `-wal` (read from a private copy) compared with a user's store
    /// in one query; neither file changes, and DETACH lets the seed go.
    @Test func aSeedIsComparedWithAStoreInOneQuery() throws {
        let store = try PersistentStore(path: try BrokenStores.copy(Fixtures.exampleStore))
        let seed = try BrokenStores.withWriteAheadLog(from: Fixtures.exampleStore, name: "seed.sqlite")
        let before = BrokenStores.bytes(of: seed)
        let storeBefore = BrokenStores.bytes(of: store.path)
        #expect(before.keys.sorted() == ["", "-shm", "-wal"])
        #expect(try Self.run(store, "ATTACH DATABASE '\(seed)' AS seed").isEmpty)
        let counts = try Self.run(store, "SELECT (SELECT count(*) FROM main.ZBOOK), (SELECT count(*) FROM seed.ZBOOK)")
        #expect(counts == [[.integer(3), .integer(4)]], "the seed's logged row is read")
        let only = try Self.run(store, "SELECT ZTITLE FROM seed.ZBOOK EXCEPT SELECT ZTITLE FROM main.ZBOOK")
        #expect(only == [[.text(BrokenStores.loggedTitle)]])
        // Writes to the attached file are refused as any other.
        #expect(Self.refusal { _ = try Self.run(store, "DELETE FROM seed.ZBOOK") } != nil)
        #expect(try Self.run(store, "DETACH seed;").isEmpty)
        #expect(throws: SQLiteError.self) { _ = try Self.run(store, "SELECT count(*) FROM seed.ZBOOK") }
        #expect(BrokenStores.bytes(of: seed) == before)
        #expect(BrokenStores.bytes(of: store.path) == storeBefore)
    }

    /// In a store open for writing the attached file is still read-only, and a save of the
    /// store goes through with it attached.
    @Test func aWritableStoreAttachesReadOnlyAndStillSaves() throws {
        let path = try BrokenStores.copy(Fixtures.exampleStore)
        let seed = try BrokenStores.copy(Fixtures.exampleStore, name: "seed.sqlite")
        let before = BrokenStores.bytes(of: seed)
        let store = try PersistentStore(path: path, readOnly: false)
        _ = try Self.run(store, "attach '\(seed)' as 'seed'")
        let context = ManagedObjectContext(store: store)
        try context.insert("Book").set("title", "Saved beside a seed")
        try context.save()
        #expect(try Self.run(store, "SELECT count(*) FROM main.ZBOOK") == [[.integer(4)]])
        #expect(try Self.run(store, "SELECT count(*) FROM seed.ZBOOK") == [[.integer(3)]])
        #expect(Self.refusal { _ = try Self.run(store, "INSERT INTO seed.Z_METADATA SELECT * FROM main.Z_METADATA") } != nil)
        #expect(BrokenStores.bytes(of: seed) == before)
    }

    /// The store's own file is `main` already; a second connection to it is refused, by
    /// its path or a symbolic link to it.
    @Test func theStoresOwnFileIsRefused() throws {
        let path = try BrokenStores.copy(Fixtures.exampleStore)
        let link = (path as NSString).deletingLastPathComponent + "/link.sqlite"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        let store = try PersistentStore(path: path)
        for target in [path, link] {
            let error = Self.refusal { _ = try Self.run(store, "ATTACH '\(target)' AS me") }
            #expect(error == .attachRefused(path: target, reason: "it is the open store's own file, already there as main"))
        }
    }

    /// A path that does not exist is refused, and no file is made there; nor are an
    /// in-memory or temporary database or a URI (which could ask for writing).
    @Test func nothingIsMadeAndNothingButAFileIsRead() throws {
        let store = try PersistentStore(path: try BrokenStores.copy(Fixtures.exampleStore))
        let missing = try ScratchDirectory.make("attach").appendingPathComponent("missing.sqlite").path
        let error = Self.refusal { _ = try Self.run(store, "ATTACH '\(missing)' AS m") }
        #expect(error == .attachRefused(path: missing, reason: "no such file (ATTACH only reads a file that exists, it never makes one)"))
        #expect(!FileManager.default.fileExists(atPath: missing))
        for path in ["", ":memory:", "file:\(missing)?mode=rwc"] {
            guard case .attachRefused? = Self.refusal({ _ = try Self.run(store, "ATTACH '\(path)' AS m") }) else {
                Issue.record("\(path) was not refused")
                continue
            }
        }
        #expect(!FileManager.default.fileExists(atPath: missing))
        // A file that is no SQLite database is named as such.
        let text = (missing as NSString).deletingLastPathComponent + "/notes.txt"
        try "not a database, long enough to have a header's worth of bytes in it, and then some more text\n".write(
            toFile: text, atomically: true, encoding: .utf8)
        #expect(throws: StoreError.notADatabase(path: text, reason: "no SQLite header")) { _ = try Self.run(store, "ATTACH '\(text)' AS t") }
    }

    @Test func onlyThePlainFormIsRun() throws {
        let store = try PersistentStore(path: try BrokenStores.copy(Fixtures.exampleStore))
        let seed = try BrokenStores.copy(Fixtures.exampleStore, name: "seed.sqlite")
        for sql in ["ATTACH seed AS s", "ATTACH '\(seed)' AS s KEY 'secret'", "ATTACH '\(seed)' AS s; SELECT 1", "ATTACH '\(seed)'", "DETACH"] {
            #expect(Self.refusal { _ = try Self.run(store, sql) } == .attachForm, "\(sql)")
        }
        #expect(Self.refusal { _ = try Self.run(store, "DETACH nothing") } == .detachRefused(name: "nothing", reason: "no such database: nothing"))
    }

    @Test func theStatementIsReadAsSQLiteReadsIt() throws {
        #expect(try AttachStatement.parse("SELECT 1") == nil)
        #expect(try AttachStatement.parse("  -- the seed\n attach /* read-only */ database 'it''s.sqlite' as [my seed] ;") == .attach(path: "it's.sqlite", name: "my seed"))
        #expect(try AttachStatement.parse("ATTACH 'a.sqlite' AS \"b\"\"c\"") == .attach(path: "a.sqlite", name: "b\"c"))
        #expect(try AttachStatement.parse("detach DATABASE `x`;;") == .detach(name: "x"))
        #expect(throws: ReadOnlySQLError.attachForm) { try AttachStatement.parse("ATTACH 'unclosed AS x") }
    }
}
