import Foundation

/// The files read-only SQL has attached to a connection (`ATTACH 'seed.sqlite' AS seed`), so
/// that one query can read a store and another file: `SELECT … FROM main.ZBOOK JOIN seed.ZBOOK`.
///
/// GraphStore attaches the file itself, as it opens a store read-only: the file is checked
/// first (it must exist: ATTACH never creates one; a regular file with an SQLite header; not
/// the open store's own file, which is already `main`), then attached through SQLite's URI
/// with `mode=ro` (`immutable=1` too when it has no log), or, when a `-wal` or `-journal` lies
/// beside it, a private copy is attached instead. So not one byte of the file, its `-wal`
/// or its `-shm` changes, even in a session that may write its own store. A private copy
/// goes with `DETACH`, or when the connection's store goes.
final class AttachedFiles {
    private struct Attached {
        /// The file, held open as a store holds its own (see `StoreFileHandle`).
        let file: StoreFile.Opened
        let privateCopy: String?
    }

    /// By schema name, in lower case (SQLite's names are not case-sensitive).
    private var byName: [String: Attached] = [:]

    deinit {
        for attached in byName.values { attached.privateCopy.map(StoreFile.removePrivateCopy) }
    }

    /// Runs an `ATTACH` or a `DETACH` on `connection`, whose own file is `main`.
    func run(_ statement: AttachStatement, on connection: Connection, besides main: StoreFile.Opened) throws {
        switch statement {
        case .attach(let path, let name): try attach(path, as: name, on: connection, besides: main)
        case .detach(let name): try detach(name, on: connection)
        }
    }

    private func attach(_ path: String, as name: String, on connection: Connection, besides main: StoreFile.Opened) throws {
        if path.isEmpty || path == ":memory:" {
            throw ReadOnlySQLError.attachRefused(path: path, reason: "ATTACH reads a file that exists, and this names none")
        }
        if path.lowercased().hasPrefix("file:") {
            throw ReadOnlySQLError.attachRefused(path: path, reason: "give the file's path, not a URI: it is always opened read-only")
        }
        let expanded = (path as NSString).expandingTildeInPath
        var status = stat()
        if stat(expanded, &status) != 0, errno == ENOENT {
            throw ReadOnlySQLError.attachRefused(path: path, reason: "no such file (ATTACH only reads a file that exists, it never makes one)")
        }
        let resolved = try StoreFile.resolve(expanded)
        if main.main.isStill(at: resolved) {
            throw ReadOnlySQLError.attachRefused(path: path, reason: "it is the open store's own file, already there as main")
        }
        let file = try StoreFile.open(resolved, path: path, forWriting: false)
        let (uri, copy) = try StoreFile.attachableURI(of: file, path: path)
        do {
            try connection.prepare("ATTACH DATABASE ? AS \(name.quotedSQLIdentifier)").execute([.text(uri)])
        } catch {
            copy.map(StoreFile.removePrivateCopy)
            throw ReadOnlySQLError.attachRefused(path: path, reason: error.message)
        }
        byName[name.lowercased()] = Attached(file: file, privateCopy: copy)
    }

    private func detach(_ name: String, on connection: Connection) throws {
        do {
            try connection.execute("DETACH DATABASE \(name.quotedSQLIdentifier)")
        } catch {
            throw ReadOnlySQLError.detachRefused(name: name, reason: error.message)
        }
        byName.removeValue(forKey: name.lowercased())?.privateCopy.map(StoreFile.removePrivateCopy)
    }
}
