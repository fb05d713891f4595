import Foundation
import Synchronization

/// A descriptor of a store's file that GraphStore reads itself (the header, SQLite's locks,
/// the private copy), shared by every store of the process on that file and closed when
/// the last one lets go of it.
///
/// POSIX releases every `fcntl` lock a process holds on a file as soon as the process
/// closes *any* descriptor of that file. SQLite's connections hold such locks (a WAL
/// store's connection keeps a shared lock on the main file and on its `-shm` for as long
/// as it is open), so opening a second store on the same file and closing a descriptor of
/// it would silently drop the first one's locks, and another process could then
/// checkpoint or reset the log under it. So GraphStore opens each file (device and inode)
/// once and closes it only when no store of this process uses that file any more.
///
/// ```swift
/// let handle = try StoreFileHandle.open("/data/App.sqlite").get()
/// pread(handle.descriptor, &buffer, 100, 0)
/// ```
final class StoreFileHandle: Sendable {
    /// The open descriptor (read-only, non-blocking, closed on exec).
    let descriptor: Int32
    private let identity: FileIdentity
    /// Whether the descriptor is this handle's own (``openSeparately(_:)``) rather than
    /// the one shared by the process.
    private let isSeparate: Bool

    private init(descriptor: Int32, identity: FileIdentity, isSeparate: Bool = false) {
        self.descriptor = descriptor
        self.identity = identity
        self.isSeparate = isSeparate
    }

    deinit {
        StoreFileHandle.release(identity, separate: isSeparate ? descriptor : nil)
    }

    /// Whether `path` names the file this descriptor is open on: false once the file was
    /// renamed over, replaced or removed (a migration put a new file in its place).
    func isStill(at path: String) -> Bool {
        var opened = stat()
        var named = stat()
        guard fstat(descriptor, &opened) == 0, stat(path, &named) == 0 else { return false }
        return FileIdentity(opened) == FileIdentity(named)
    }

    /// A descriptor of its own on the file at `path` (a separate open file description,
    /// which a `flock` of its own needs: see ``StoreWriterLock``), counted as a user of the
    /// file like a shared one and closed, like it, only when no store of the process uses
    /// the file any more, so that closing it drops no lock of SQLite's.
    static func openSeparately(_ path: String) -> Result<StoreFileHandle, SystemError> {
        openFiles.withLock { files in
            let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
            guard descriptor >= 0 else { return .failure(SystemError(code: errno)) }
            var status = stat()
            guard fstat(descriptor, &status) == 0 else {
                let error = SystemError(code: errno)
                close(descriptor)
                return .failure(error)
            }
            let identity = FileIdentity(status)
            if files[identity] != nil {
                files[identity]?.users += 1
            } else {
                files[identity] = OpenFile(descriptor: nil, users: 1)
            }
            return .success(StoreFileHandle(descriptor: descriptor, identity: identity, isSeparate: true))
        }
    }

    /// The shared descriptor of the file at `path`, opened if no store of the process has
    /// it open; the system's `errno` when it cannot be opened.
    static func open(_ path: String) -> Result<StoreFileHandle, SystemError> {
        openFiles.withLock { files in
            var status = stat()
            if stat(path, &status) == 0, let shared = files[FileIdentity(status)]?.descriptor {
                files[FileIdentity(status)]?.users += 1
                return .success(StoreFileHandle(descriptor: shared, identity: FileIdentity(status)))
            }
            // Non-blocking, so that a FIFO put in the file's place since it was checked
            // cannot make the open wait for a writer.
            let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
            guard descriptor >= 0 else { return .failure(SystemError(code: errno)) }
            guard fstat(descriptor, &status) == 0 else {
                let error = SystemError(code: errno)
                close(descriptor)
                return .failure(error)
            }
            let identity = FileIdentity(status)
            if let shared = files[identity]?.descriptor {
                // Opened by another thread in the meantime: keep that one.
                close(descriptor)
                files[identity]?.users += 1
                return .success(StoreFileHandle(descriptor: shared, identity: identity))
            }
            if files[identity] != nil {
                // Only separate descriptors so far: this one becomes the shared one.
                files[identity]?.descriptor = descriptor
                files[identity]?.users += 1
            } else {
                files[identity] = OpenFile(descriptor: descriptor, users: 1)
            }
            return .success(StoreFileHandle(descriptor: descriptor, identity: identity))
        }
    }

    /// Keeps `connection` open until no store of the process uses the file any more, for a
    /// connection through SQLite's `unix-none` file system (``ReadOnlyAccess/inPlace``):
    /// that one closes its descriptors at once, without the unix file system's wait for the
    /// process's other locks on the file, so closing it while another store of the process
    /// has the file open would drop that store's locks.
    func keepOpenWithFile(_ connection: Connection) {
        Self.openFiles.withLock { files in
            files[identity]?.kept.append(KeptConnection(connection: connection))
        }
    }

    /// One user fewer; a separate descriptor waits with the shared one until the last.
    private static func release(_ identity: FileIdentity, separate: Int32?) {
        // Closed after the lock is released: closing a connection runs SQLite's own code.
        let closing = openFiles.withLock { files -> [KeptConnection] in
            guard let entry = files[identity] else {
                separate.map { _ = close($0) }
                return []
            }
            if entry.users > 1 {
                files[identity]?.users -= 1
                if let separate { files[identity]?.retired.append(separate) }
                return []
            }
            files[identity] = nil
            entry.descriptor.map { _ = close($0) }
            for descriptor in entry.retired { close(descriptor) }
            separate.map { _ = close($0) }
            return entry.kept
        }
        _ = closing
    }

    /// A connection kept open with the file (``keepOpenWithFile(_:)``). Unchecked: its store
    /// is gone, so nothing uses it; it is only released, once, with the file's last user.
    private struct KeptConnection: @unchecked Sendable {
        let connection: Connection
    }

    private struct FileIdentity: Equatable {
        var device: Int
        var inode: Int

        init(_ status: stat) {
            device = Int(truncatingIfNeeded: status.st_dev)
            inode = Int(truncatingIfNeeded: status.st_ino)
        }
    }

    /// The open files by device, then inode. Keyed by `Int` alone, not by `FileIdentity`:
    /// the first dictionary keyed by a type of its own makes the Swift runtime scan every
    /// protocol conformance in the binary for that type's `Hashable`, at every start
    /// (see Benchmarks/README.md, "Cold start").
    private struct OpenFiles {
        private var byDevice: [Int: [Int: OpenFile]] = [:]

        subscript(identity: FileIdentity) -> OpenFile? {
            get { byDevice[identity.device]?[identity.inode] }
            set {
                byDevice[identity.device, default: [:]][identity.inode] = newValue
                if byDevice[identity.device]?.isEmpty == true { byDevice[identity.device] = nil }
            }
        }
    }

    private struct OpenFile {
        /// The shared descriptor, once a shared handle was asked for.
        var descriptor: Int32?
        var users: Int
        /// Separate descriptors whose handles are gone, closed with the shared one.
        var retired: [Int32] = []
        /// Connections of stores that are gone, closed with the shared descriptor.
        var kept: [KeptConnection] = []
    }

    private static let openFiles = Mutex(OpenFiles())
}
