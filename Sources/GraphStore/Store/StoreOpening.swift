import CSQLite
import Foundation

/// A store being opened: what is needed to say why reading it failed.
struct Opening {
    /// The path as given, for messages.
    let path: String
    let file: StoreFile.Opened
    let connection: Connection
    let readOnly: Bool

    /// The error for an SQLite failure while the store's schema and bookkeeping are read,
    /// when it has a cause of its own (see ``StoreError/opening(_:path:file:connection:readOnly:)``).
    func failure(_ error: SQLiteError) -> StoreError? {
        StoreError.opening(error, path: path, file: file, connection: connection, readOnly: readOnly)
    }
}

extension StoreError {
    /// The error for an SQLite failure while a store is opened, when its cause has a case
    /// of its own: locked by another process, disk full, permission denied, not a
    /// database, damaged (with `PRAGMA quick_check`'s first finding), an I/O error. Nil
    /// for the rest, which the caller names by what it was reading.
    static func opening(_ error: SQLiteError, path: String, file: StoreFile.Opened, connection: Connection?, readOnly: Bool) -> StoreError? {
        switch error.code {
        case SQLITE_BUSY, SQLITE_LOCKED:
            let holder = StoreLocks.holder(of: file, forWriting: true) ?? StoreLocks.holder(of: file, forWriting: false)
            return .locked(path: path, holder: holder.flatMap { $0 > 0 ? $0 : nil })
        case SQLITE_NOTADB:
            return .notADatabase(path: path, reason: error.message)
        case SQLITE_CORRUPT:
            return .damaged(path: path, finding: connection.flatMap(firstIntegrityFinding) ?? error.message)
        case SQLITE_FULL:
            // A read-only store writes only its private copy, in the temporary directory.
            let directory = readOnly ? StoreFile.temporaryDirectory : (file.resolvedPath as NSString).deletingLastPathComponent
            return .diskFull(path: path, directory: directory)
        case SQLITE_PERM, SQLITE_READONLY, SQLITE_AUTH:
            return readOnly
                ? .fileSystemError(path: path, operation: "read its private copy", reason: error.message)
                : .permissionDenied(path: path, forWriting: true)
        case SQLITE_CANTOPEN:
            return .fileSystemError(path: path, operation: "open it", reason: error.message)
        case SQLITE_IOERR:
            return .fileSystemError(path: path, operation: "read it", reason: error.message)
        default:
            return nil
        }
    }

    /// `PRAGMA quick_check`'s first finding, or the reason it cannot run; nil when it
    /// finds nothing.
    private static func firstIntegrityFinding(_ connection: Connection) -> String? {
        do {
            let rows = try connection.rows("PRAGMA quick_check(1)")
            guard case .text(let text)? = rows.first?.first, text != "ok" else { return nil }
            // "*** in database main ***\nPage 8: btreeInitPage() returns error code 11":
            // the finding, without the header naming the (only) database.
            let lines = text.split(separator: "\n").filter { !$0.hasPrefix("*** in database") }
            return lines.isEmpty ? text : lines.joined(separator: "; ")
        } catch {
            return error.message
        }
    }
}
