/// How a store opened read-only is read without writing one byte of it, its `-wal` or its
/// `-shm`, chosen from the files beside it and who else has it open:
///
/// - **no log**: `immutable=1`: SQLite takes no locks and makes no `-shm`;
/// - **a `-wal` no other connection uses** (a store copied off a device, or left by an app
///   that ended): read in place, the log's index built in this process's memory: SQLite's
///   `unix-none` file system (no locks) with every store file opened read-only
///   (``ReadOnlyFileSystem``), in exclusive locking mode (the index on the heap, no `-shm`
///   opened or made). Reading the log costs in proportion to the log, not to the store;
/// - **a `-wal` another connection uses** (an app running, or a GraphStore writer here or
///   elsewhere), or **a `-journal`** (a write that did not finish, whose rollback writes the
///   store): read from a private copy (``StoreFile/privateCopy(of:path:)``), a snapshot the
///   writer cannot change under the reader. In place, reading would have to take part in
///   SQLite's locking through the `-shm`, which writes it; and a connection of this process
///   opened on the file later would share SQLite's index with the reader.
///
/// Read in place, the store is read as it was when opened: a program that opens it for
/// writing afterwards does not know of this reader and may fold the log into the file under
/// it, so once the files change every statement refuses to run (``InPlaceSnapshot``) and the
/// store is opened again to read what was written. The store's files are opened with
/// `O_RDONLY` in every way: the kernel refuses any write.
enum ReadOnlyAccess: Equatable {
    case immutable
    case inPlace
    case privateCopy

    /// The way `file` is read.
    init(_ file: StoreFile.Opened) {
        if !file.hasLog {
            self = .immutable
        } else if file.hasJournal || StoreLocks.connectionElsewhere(of: file) != nil || StoreWriterLock.isHeld(on: file.resolvedPath)
            || !ReadOnlyFileSystem.isRegistered
        {
            self = .privateCopy
        } else {
            self = .inPlace
        }
    }

    /// The URI that opens the store at `path` this way (for ``privateCopy``, the copy at
    /// `path`, read-only, as `ATTACH` reads it).
    func uri(_ path: String) -> String {
        switch self {
        case .immutable: StoreFile.uri(path, query: "mode=ro&immutable=1")
        case .inPlace: StoreFile.uri(path, query: "mode=ro&vfs=\(ReadOnlyFileSystem.name)")
        case .privateCopy: StoreFile.uri(path, query: "mode=ro")
        }
    }

    /// What a connection opened with ``uri(_:)`` runs before its first read: the locking
    /// mode that keeps the log's index on the heap must be set before SQLite opens the log.
    var setupSQL: String? {
        self == .inPlace ? "PRAGMA locking_mode = EXCLUSIVE" : nil
    }
}
