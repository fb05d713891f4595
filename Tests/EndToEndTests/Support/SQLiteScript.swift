import CSQLite
import Foundation

/// Changes a store behind graphstore's back, as a database browser or a script would.
enum SQLiteScript {
    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `sql` (several statements) on the database at `path`.
    static func run(_ path: String, _ sql: String) throws {
        var db: OpaquePointer?
        defer { sqlite3_close(db) }
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else { throw Failed(description: "cannot open \(path)") }
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(db, sql, nil, nil, &message) == SQLITE_OK else {
            defer { sqlite3_free(message) }
            throw Failed(description: message.map { String(cString: $0) } ?? "sqlite3_exec failed")
        }
    }
}
