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

    private init(descriptor: Int32, identity: FileIdentity) {
        self.descriptor = descriptor
        self.identity = identity
    }

    deinit {
        StoreFileHandle.release(identity)
    }

    /// The shared descriptor of the file at `path`, opened if no store of the process has
    /// it open; the system's `errno` when it cannot be opened.
    static func open(_ path: String) -> Result<StoreFileHandle, SystemError> {
        openFiles.withLock { files in
            var status = stat()
            if stat(path, &status) == 0, let entry = files[FileIdentity(status)] {
                files[FileIdentity(status)]?.users += 1
                return .success(StoreFileHandle(descriptor: entry.descriptor, identity: FileIdentity(status)))
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
            if let entry = files[identity] {
                // Opened by another thread in the meantime: keep that one.
                close(descriptor)
                files[identity]?.users += 1
                return .success(StoreFileHandle(descriptor: entry.descriptor, identity: identity))
            }
            files[identity] = OpenFile(descriptor: descriptor, users: 1)
            return .success(StoreFileHandle(descriptor: descriptor, identity: identity))
        }
    }

    private static func release(_ identity: FileIdentity) {
        openFiles.withLock { files in
            guard let entry = files[identity] else { return }
            if entry.users > 1 {
                files[identity]?.users -= 1
            } else {
                files[identity] = nil
                close(entry.descriptor)
            }
        }
    }

    private struct FileIdentity: Hashable {
        var device: UInt64
        var inode: UInt64

        init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    private struct OpenFile {
        var descriptor: Int32
        var users: Int
    }

    private static let openFiles = Mutex<[FileIdentity: OpenFile]>([:])
}
