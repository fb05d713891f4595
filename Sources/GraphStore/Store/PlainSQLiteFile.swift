/// An SQLite file that is no Core Data store (it has no `Z_PRIMARYKEY` or `Z_METADATA`),
/// opened read-only to read its tables and run read-only SQL on it, as the REPL does for a
/// plain SQLite file given where a store goes.
///
/// It is opened as a read-only store is: the file is checked first (a regular file with an
/// SQLite header, not cut short, not held by a writer), then read through `immutable=1`,
/// or, when a log lies beside it, in place or from a private copy (see `ReadOnlyAccess`),
/// so not one byte of it, its `-wal` or its `-shm` changes. There are no entities, objects
/// or fetch requests: only what ``SQLiteReading`` gives. Core Data has no such type (it
/// opens only its own stores).
///
/// ```swift
/// let file = try PlainSQLiteFile(path: "banklist.sqlite3")
/// try file.forEachRow(readOnlySQL: "SELECT count(*) FROM banklist") { print($0) }   // [.integer(561)]
/// ```
public final class PlainSQLiteFile: SQLiteReading {
    /// The file's path, as given (messages name the file by it).
    public let path: String
    /// The file's real path (symbolic links followed).
    public let resolvedPath: String
    /// The file's tables, columns and indexes, read when it was opened.
    public let schema: DatabaseSchema
    let connection: Connection
    /// The file, held open as a store holds its own (see `StoreFileHandle`).
    private let file: StoreFile.Opened
    private let privateCopy: String?
    private let attachedFiles = AttachedFiles()
    private let interruption = MatchInterruption()

    /// Opens the file at `path` read-only.
    ///
    /// - Throws: ``StoreError`` when it cannot be read, or is no SQLite database.
    public init(path: String) throws(StoreError) {
        let file = try StoreFile.open(try StoreFile.resolve(path), path: path, forWriting: false)
        if let holder = StoreLocks.holder(of: file, forWriting: false, afterWaiting: .milliseconds(Int(Connection.defaultBusyTimeout))) {
            throw .locked(path: path, holder: holder > 0 ? holder : nil)
        }
        let (connection, copy) = try StoreFile.readOnlyConnection(to: file, path: path)
        do {
            schema = try DatabaseSchema(reading: connection)
        } catch {
            StoreFile.release(readOnly: connection, privateCopy: copy, file: file)
            throw Opening(path: path, file: file, connection: connection, readOnly: true).failure(error)
                ?? .notADatabase(path: path, reason: error.message)
        }
        self.path = path
        resolvedPath = file.resolvedPath
        self.connection = connection
        self.file = file
        privateCopy = copy
    }

    deinit {
        StoreFile.release(readOnly: connection, privateCopy: privateCopy, file: file)
    }

    /// Stops the SQL the file is running, from another thread or a signal handler.
    public var interrupter: StoreInterrupter {
        StoreInterrupter(handle: connection.handle, matches: interruption)
    }

    /// Runs one read-only SQL statement and hands its column names, then each row, over;
    /// `ATTACH 'path' AS name` attaches another file read-only, as on a store.
    ///
    /// - Throws: ``ReadOnlySQLError`` for a statement that is not one read or an ATTACH
    ///   refused; `SQLiteError` for SQL SQLite cannot run.
    public func forEachRow(
        readOnlySQL sql: String, columns: ([String]) throws -> Void = { _ in }, row body: ([SQLiteValue]) throws -> Void
    ) throws {
        try interruption.watching {
            try ReadOnlySQL.forEachRow(sql, on: connection, attaching: attachedFiles, besides: file, columns: columns, row: body)
        }
    }
}
