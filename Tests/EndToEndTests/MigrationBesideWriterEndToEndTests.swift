import CSQLite
import Foundation
import Testing

/// A migration and another `graphstore --write` session on one store, two processes in
/// lock-step (each step waits for the other's output, no sleep): the migration is refused
/// while the session has the store open, the session's saves all land in the store, and
/// once the session is closed the migration runs.
@Suite struct MigrationBesideWriterEndToEndTests {
    static var history: String { GraphStoreBinary.packageRoot.appendingPathComponent("examples/BookStore/History.xcdatamodeld").path }

    /// A query's first value as text, on a read-only connection; nil when it fails.
    static func scalar(_ path: String, _ sql: String) -> String? {
        var db: OpaquePointer?
        defer { sqlite3_close(db) }
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return nil }
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, sqlite3_step(statement) == SQLITE_ROW,
            let text = sqlite3_column_text(statement, 0)
        else { return nil }
        return String(cString: text)
    }

    @Test func aMigrationIsRefusedWhileAnotherSessionWritesTheStore() throws {
        let store = try GraphStoreBinary.copy(GraphStoreBinary.exampleStore)
        let session = try ConflictEndToEndTests.PipedSession(["--write", store])
        _ = try session.run(".bail off")
        #expect(try session.run(#"insert Book title="Before""#, "save").contains("saved: 1 inserted"))

        let refused = try GraphStoreBinary.run(["--write", store, "-c", "migrate --model \(Self.history)"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains(
            "\(store) is open for writing in another program (pid \(session.processIdentifier)), which would go on writing the old file once the migrated one took its place; close it and migrate again; the store is unchanged"),
            "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store + ".backup"))

        // The session goes on: its save lands in the store, not in a backup.
        #expect(try session.run(#"insert Book title="After""#, "save").contains("saved: 1 inserted"))
        #expect(try session.finish() == 0)
        #expect(Self.scalar(store, "SELECT count(*) FROM ZBOOK WHERE ZTITLE IN ('Before', 'After')") == "2")
        #expect(Self.scalar(store, "PRAGMA integrity_check") == "ok")

        // Closed: the migration runs, and keeps both books.
        let migrated = try GraphStoreBinary.run(["--write", store, "-c", "migrate --model \(Self.history)"])
        #expect(migrated.status == 0, "\(migrated.stderr)")
        // History's last version renames Book to Publication, stored in ZPUBLICATION.
        #expect(Self.scalar(store, "SELECT count(*) FROM ZPUBLICATION WHERE ZTITLE IN ('Before', 'After')") == "2")
        #expect(Self.scalar(store, "PRAGMA integrity_check") == "ok")
    }

    /// A session whose store file another program replaced (a copy renamed over it) refuses
    /// its next save with a sentence, and writes nothing into the old file or the new one.
    @Test func aSessionWhoseFileWasReplacedRefusesToSave() throws {
        let store = try GraphStoreBinary.copy(GraphStoreBinary.exampleStore)
        let session = try ConflictEndToEndTests.PipedSession(["--write", store])
        _ = try session.run(".bail off")
        #expect(try session.run("fetch Book limit 1").contains("Book/p1"))
        let copy = store + ".copy"
        try FileManager.default.copyItem(atPath: store, toPath: copy)
        let old = store + ".old"
        #expect(link(store, old) == 0)
        #expect(rename(copy, store) == 0)

        let refused = try session.run(#"insert Book title="Lost?""#, "save")
        #expect(refused.contains(
            "\(store): the file was replaced (by a migration or a copy) or removed since the store was opened; nothing was written to the old file: open the store again"),
            "\(refused)")
        _ = try session.finish()
        #expect(Self.scalar(store, "SELECT count(*) FROM ZBOOK WHERE ZTITLE = 'Lost?'") == "0")
        #expect(Self.scalar(old, "SELECT count(*) FROM ZBOOK WHERE ZTITLE = 'Lost?'") == "0")
        #expect(Self.scalar(store, "PRAGMA integrity_check") == "ok")
    }
}
