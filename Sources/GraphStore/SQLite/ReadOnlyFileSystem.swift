import CSQLite
import Glibc

/// SQLite's lock-free `unix-none` file system, with a store's main file, log and journal
/// always opened read-only and no file ever deleted: what a store read in place goes through
/// (`ReadOnlyAccess.inPlace`).
///
/// `mode=ro` alone is not enough: SQLite opens a `-wal` for reading and writing whenever
/// the process may write it (root may write anything), and a connection closing checkpoints
/// and deletes the log when it holds no frame SQLite accepts (a damaged one) — a read-only
/// session that removed the store's `-wal`. Here the kernel refuses every write to those
/// files, so SQLite treats the log as read-only (no checkpoint, no restart), and a delete is
/// refused. Temporary files (sorts that spill, materialized views) are opened as SQLite asks.
///
/// ```swift
/// guard ReadOnlyFileSystem.isRegistered else { … }   // then open "file:…?vfs=graphstore-readonly"
/// ```
enum ReadOnlyFileSystem {
    /// The name a URI's `vfs=` gives.
    static let name = "graphstore-readonly"

    /// The file system it wraps.
    private static let baseName = "unix-none"

    /// Registers the file system (once per process); false when SQLite has no `unix-none`.
    ///
    /// Unsafe code, and its invariants: the `sqlite3_vfs` is a copy of `unix-none`'s with its
    /// name, `xOpen` and `xDelete` replaced, allocated once and never freed (SQLite keeps a
    /// pointer to it for the life of the process); `pAppData` stays `unix-none`'s own, which
    /// its methods read. `xOpen` calls `unix-none`'s with the base file system itself, so the
    /// file it fills is `unix-none`'s in every way (`szOsFile` is the same).
    static let isRegistered: Bool = {
        guard let base = sqlite3_vfs_find(baseName) else { return false }
        let fileSystem = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
        fileSystem.initialize(to: base.pointee)
        fileSystem.pointee.pNext = nil
        fileSystem.pointee.zName = UnsafePointer(strdup(name))
        fileSystem.pointee.xOpen = { _, path, file, flags, outFlags in
            guard let base = sqlite3_vfs_find(ReadOnlyFileSystem.baseName), let open = base.pointee.xOpen else { return SQLITE_CANTOPEN }
            return open(base, path, file, ReadOnlyFileSystem.openFlags(flags), outFlags)
        }
        fileSystem.pointee.xDelete = { _, _, _ in SQLITE_READONLY }
        return sqlite3_vfs_register(fileSystem, 0) == SQLITE_OK
    }()

    /// The flags a file is opened with: a store's own files read-only, never created;
    /// SQLite's temporary files as asked.
    static func openFlags(_ flags: Int32) -> Int32 {
        guard flags & (SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_WAL | SQLITE_OPEN_MAIN_JOURNAL) != 0 else { return flags }
        return (flags & ~(SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)) | SQLITE_OPEN_READONLY
    }
}
