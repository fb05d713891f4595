import CSQLite
import Foundation

/// Real store files in awkward states, made from a real store with plain SQLite: a log
/// that holds committed rows, a hot rollback journal, a bookkeeping value no Core Data
/// would write. Each is made in a fresh scratch directory; the source is only read.
///
/// ```swift
/// let store = try BrokenStores.withWriteAheadLog(from: example)   // rows only in -wal
/// let hot = try BrokenStores.withHotJournal(from: example)        // an interrupted write
/// ```
public enum BrokenStores {
    /// The title of the book that `withWriteAheadLog` commits to the log only.
    public static let loggedTitle = "Only in the log"

    /// A copy of `source` with a `-wal` that holds a committed `Book` row titled
    /// ``loggedTitle`` (and the `-shm` beside it): the files as a process that is still
    /// running leaves them. Readers that ignore the log miss the row. `sql` runs in the
    /// logged transaction too (to break the store in its log only).
    public static func withWriteAheadLog(from source: String, name: String = "Store.sqlite", alsoRunning sql: String = "") throws -> String {
        let work = try copy(source, name: name)
        let database = try SQLiteFile(work)
        try database.execute("PRAGMA journal_mode = WAL")
        try database.execute("""
            BEGIN;
            INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE) \
            VALUES ((SELECT Z_MAX + 1 FROM Z_PRIMARYKEY WHERE Z_NAME = 'Book'), 1, 1, '\(loggedTitle)');
            UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1 WHERE Z_NAME = 'Book';
            \(sql);
            COMMIT
            """)
        // Copied while the connection is open: closing it would fold the log into the file.
        let target = try ScratchDirectory.make("store-with-log").appendingPathComponent(name).path
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.copyItem(atPath: work + suffix, toPath: target + suffix)
        }
        return target
    }

    /// A copy of `source` in rollback-journal mode with a hot `-journal`: a write of many
    /// `Book` rows was interrupted after some of its pages reached the file. Reading the
    /// file without rolling the journal back shows rows that were never committed (or a
    /// damaged file); rolling it back gives `source`'s rows.
    public static func withHotJournal(from source: String, name: String = "Store.sqlite") throws -> String {
        let work = try copy(source, name: name)
        let database = try SQLiteFile(work)
        try database.execute("PRAGMA journal_mode = DELETE; PRAGMA cache_size = 10")
        try database.execute("BEGIN")
        // More pages than the cache holds, so SQLite writes some to the file mid-transaction.
        try database.execute("""
            WITH RECURSIVE n(x) AS (SELECT 1000 UNION ALL SELECT x + 1 FROM n WHERE x < 3000)
            INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE) SELECT x, 1, 1, printf('%.200c', 'x') FROM n
            """)
        let target = try ScratchDirectory.make("store-with-journal").appendingPathComponent(name).path
        for suffix in ["", "-journal"] {
            try FileManager.default.copyItem(atPath: work + suffix, toPath: target + suffix)
        }
        try database.execute("ROLLBACK")
        let before = try FileManager.default.attributesOfItem(atPath: source)[.size] as? Int
        let after = try FileManager.default.attributesOfItem(atPath: target)[.size] as? Int
        guard before != after else { throw BrokenStoreError("no page of the interrupted write reached \(target)") }
        return target
    }

    /// A copy of `source` with some SQL run on it (to break its bookkeeping).
    public static func changed(_ source: String, name: String = "Store.sqlite", sql: String) throws -> String {
        let target = try copy(source, name: name)
        try SQLiteFile(target).execute(sql)
        return target
    }

    /// A copy of `source` (and its `-wal`, `-shm` and `-journal`, if any) in a fresh
    /// directory.
    public static func copy(_ source: String, name: String = "Store.sqlite") throws -> String {
        let target = try ScratchDirectory.make("store").appendingPathComponent(name).path
        for suffix in ["", "-wal", "-shm", "-journal"] where FileManager.default.fileExists(atPath: source + suffix) {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: target + suffix)
        }
        return target
    }

    /// A store's files (main, `-wal`, `-shm`, `-journal`) and their bytes, to show that
    /// nothing changed.
    public static func bytes(of path: String) -> [String: Data] {
        var result: [String: Data] = [:]
        for suffix in ["", "-wal", "-shm", "-journal"] {
            if let data = FileManager.default.contents(atPath: path + suffix) { result[suffix] = data }
        }
        return result
    }

    /// The `graphstore-*` private-copy folders in a directory.
    public static func privateCopies(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasPrefix("graphstore-") }
    }
}

/// A raw SQLite connection, closed when released.
public final class SQLiteFile {
    private let handle: OpaquePointer

    public init(_ path: String) throws {
        var handle: OpaquePointer?
        guard sqlite3_open(path, &handle) == SQLITE_OK, let handle else {
            sqlite3_close(handle)
            throw BrokenStoreError("cannot open \(path)")
        }
        self.handle = handle
    }

    deinit { sqlite3_close(handle) }

    /// Runs SQL; throws SQLite's message.
    public func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(message)
            throw BrokenStoreError("\(text) (in: \(sql))")
        }
    }
}

/// A store could not be made as asked.
public struct BrokenStoreError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
