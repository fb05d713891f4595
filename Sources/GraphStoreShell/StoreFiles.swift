import Foundation

/// The open store's files as they are on disk — the database and the files SQLite keeps
/// beside it (`-wal`, `-shm`, `-journal`) — so that a file the shell is asked to write
/// (`.output`, `.once`, `.journal`) can be recognised as one of them however its name is
/// spelt: through a symbolic link, with `./` or `..`, or as a hard link.
///
/// ```swift
/// let files = StoreFiles(storePath: "BookStore.sqlite")
/// files.role(of: "./BookStore.sqlite-wal")   // .writeAheadLog
/// files.role(of: "books.csv")                // nil
/// ```
struct StoreFiles {
    /// Which of the store's files a path is.
    enum Role: CaseIterable {
        case store, writeAheadLog, sharedMemory, rollbackJournal

        /// What SQLite appends to the store's name for this file.
        var suffix: String {
            switch self {
            case .store: ""
            case .writeAheadLog: "-wal"
            case .sharedMemory: "-shm"
            case .rollbackJournal: "-journal"
            }
        }

        /// The file in a message: "it is the open store's write-ahead log".
        var name: String {
            switch self {
            case .store: "the open store"
            case .writeAheadLog: "the open store's write-ahead log"
            case .sharedMemory: "the open store's shared-memory file"
            case .rollbackJournal: "the open store's rollback journal"
            }
        }

        /// The file seen from the store: ".output writes to its write-ahead log".
        var fromTheStore: String {
            switch self {
            case .store: "it"
            case .writeAheadLog: "its write-ahead log"
            case .sharedMemory: "its shared-memory file"
            case .rollbackJournal: "its rollback journal"
            }
        }
    }

    /// The store's path with every symbolic link resolved: SQLite names the companion files
    /// after it, so a store opened through a link has them beside the link's target.
    let resolvedPath: String

    init(storePath: String) {
        resolvedPath = Self.resolve(storePath)
    }

    /// Which of the store's files `path` is, if any: the same file (device and inode) when
    /// both exist, else the same name once links are resolved (a file not made yet).
    func role(of path: String) -> Role? {
        let target = Self.resolve(path)
        let identity = Self.identity(of: path)
        return Role.allCases.first { role in
            let file = resolvedPath + role.suffix
            if file == target { return true }
            guard let identity, let other = Self.identity(of: file) else { return false }
            return identity == other
        }
    }

    // MARK: - Paths

    /// The file's device and inode, following links; nil when it does not exist.
    private static func identity(of path: String) -> [UInt64]? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return [UInt64(status.st_dev), UInt64(status.st_ino)]
    }

    /// The path with links, `.` and `..` resolved. A file that does not exist yet is named
    /// by its directory's resolved path; a link to one is followed to where writing
    /// through it would create the file.
    static func resolve(_ path: String) -> String {
        var path = path
        // As many links as the kernel follows before it gives up (ELOOP).
        for _ in 0..<40 {
            if let real = realPath(path) { return real }
            let directory = (path as NSString).deletingLastPathComponent
            var status = stat()
            if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK,
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path)
            {
                path = target.hasPrefix("/") ? target : (directory.isEmpty ? target : directory + "/" + target)
                continue
            }
            let name = (path as NSString).lastPathComponent
            let parent = realPath(directory.isEmpty ? "." : directory) ?? directory
            return parent.hasSuffix("/") ? parent + name : parent + "/" + name
        }
        return path
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
