import Foundation

/// The state of a store read in place (``ReadOnlyAccess/inPlace``) when it was opened: the
/// main file's and the log's inode, size and modification time. The reader keeps the log's
/// index in its own memory, so nothing tells SQLite when another program writes the store
/// afterwards; a program that does may fold the log into the file and start it again, and
/// the reader's index would then point at pages that are no longer there. So each statement
/// first compares the files with this state, and refuses to run once they changed: an
/// error that says to open the store again, never rows read from a log that moved.
///
/// ```swift
/// let snapshot = InPlaceSnapshot(resolvedPath: "/data/App.sqlite")
/// connection.checkBeforeEachStatement { snapshot.changeError(path: "App.sqlite") }
/// ```
struct InPlaceSnapshot: Sendable {
    /// What is compared of a file.
    private struct FileState: Equatable {
        var inode: UInt64
        var size: Int64
        var modifiedSeconds: Int
        var modifiedNanoseconds: Int

        /// The file's state, or nil when there is no file.
        init?(_ path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            inode = UInt64(status.st_ino)
            size = Int64(status.st_size)
            modifiedSeconds = status.st_mtim.tv_sec
            modifiedNanoseconds = status.st_mtim.tv_nsec
        }
    }

    private let main: String
    private let log: String
    private let mainState: FileState?
    private let logState: FileState?

    /// The state of the store at `resolvedPath` and of its `-wal` now.
    init(resolvedPath: String) {
        main = resolvedPath
        log = resolvedPath + "-wal"
        mainState = FileState(main)
        logState = FileState(log)
    }

    /// Whether the store or its log is no longer as it was.
    var hasChanged: Bool {
        FileState(main) != mainState || FileState(log) != logState
    }

    /// The error a statement fails with once the files changed (`path` names the store),
    /// or nil while they have not.
    func changeError(path: String) -> SQLiteError? {
        guard hasChanged else { return nil }
        return SQLiteError(
            code: 5, extendedCode: 517,  // SQLITE_BUSY_SNAPSHOT: the snapshot read is no longer the store's
            message: "\(path) changed on disk since it was opened read-only (another program wrote to it): open it again to read what it holds now")
    }
}
