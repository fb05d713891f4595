import Foundation

/// GraphStore's own lock on a store file, beside SQLite's: a `flock` on the main file,
/// shared by every store opened for writing for as long as it is open, exclusive for a
/// migration for its whole run.
///
/// SQLite's locks cannot say "a program has this store open": between transactions a
/// store in rollback-journal mode holds none, and a migration that puts a new file in the
/// store's place would leave such a writer writing the old file (renamed to the backup),
/// its log beside the new one. So every GraphStore writer holds this lock, and a migration
/// takes it exclusively: it waits a moment for writers to close, then refuses; a writer
/// opened during a migration waits for it to finish, then opens the file the migration left.
///
/// `flock` belongs to an open file description, not to a process, and does not meet
/// SQLite's `fcntl` locks: two stores of one process exclude each other as two processes
/// do, and each lock has a descriptor of its own (``StoreFileHandle/openSeparately(_:)``).
///
/// ```swift
/// let lock = try StoreWriterLock.take(.migration, on: "/data/App.sqlite", path: "App.sqlite", patience: .seconds(5)).get()
/// // … the store is replaced …
/// ```
final class StoreWriterLock {
    /// Which lock: a writer's (shared) or a migration's (exclusive).
    enum Kind {
        case writer
        case migration
    }

    /// Why the lock was not had.
    enum Refusal: Error {
        /// Another store holds the lock in a way this one cannot share, still after the wait.
        case held(holder: Int32?)
        /// The path names another file than the one locked (replaced meanwhile).
        case replaced
        /// The file could not be opened.
        case system(SystemError)
    }

    private let handle: StoreFileHandle
    /// The file the lock is on (its real path).
    let resolvedPath: String

    private init(handle: StoreFileHandle, resolvedPath: String) {
        self.handle = handle
        self.resolvedPath = resolvedPath
    }

    deinit {
        // Released now; the descriptor itself closes with the file's last user.
        flock(handle.descriptor, LOCK_UN)
    }

    /// Takes the lock on the file at `resolved`, waiting up to `patience` for a holder that
    /// is in the way (polling, as ``StoreLocks`` waits for SQLite's locks), then checks that
    /// the path still names the file locked.
    static func take(_ kind: Kind, on resolved: String, patience: Duration) -> Result<StoreWriterLock, Refusal> {
        let handle: StoreFileHandle
        switch StoreFileHandle.openSeparately(resolved) {
        case .success(let opened): handle = opened
        case .failure(let error): return .failure(.system(error))
        }
        let operation = (kind == .writer ? LOCK_SH : LOCK_EX) | LOCK_NB
        let deadline = ContinuousClock.now + patience
        var pause: UInt32 = 1_000  // µs, doubling to 50 ms
        while flock(handle.descriptor, operation) != 0 {
            let code = errno
            if code == EINTR { continue }
            guard code == EAGAIN else { return .failure(.system(SystemError(code: code))) }  // EWOULDBLOCK on Linux
            guard ContinuousClock.now < deadline else { return .failure(.held(holder: holder(of: handle.descriptor))) }
            usleep(pause)
            pause = min(pause * 2, 50_000)
        }
        let lock = StoreWriterLock(handle: handle, resolvedPath: resolved)
        guard handle.isStill(at: resolved) else { return .failure(.replaced) }
        return .success(lock)
    }

    /// Whether a GraphStore writer or migration, in this process or another, has the file
    /// at `resolved` open: asked by taking the lock exclusively without waiting, and
    /// releasing it at once. A file that cannot be opened counts as held.
    static func isHeld(on resolved: String) -> Bool {
        guard case .success(let handle) = StoreFileHandle.openSeparately(resolved) else { return true }
        while flock(handle.descriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno != EINTR { return true }
        }
        flock(handle.descriptor, LOCK_UN)
        return false
    }

    /// Whether the path still names the file locked.
    var isStillInPlace: Bool { handle.isStill(at: resolvedPath) }

    /// The process holding a `flock` on the file, from `/proc/locks` (Linux), when the
    /// system says and it is another process; nil otherwise.
    private static func holder(of descriptor: Int32) -> Int32? {
        var status = stat()
        guard fstat(descriptor, &status) == 0,
            let text = try? String(contentsOfFile: "/proc/locks", encoding: .utf8)
        else { return nil }
        // "1: FLOCK  ADVISORY  WRITE 4711 08:01:131074 0 EOF": the device as major:minor in hex.
        let major = (UInt64(status.st_dev) >> 8) & 0xfff | ((UInt64(status.st_dev) >> 32) & ~0xfff)
        let minor = UInt64(status.st_dev) & 0xff | ((UInt64(status.st_dev) >> 12) & ~0xff)
        let file = "\(String(major, radix: 16, uppercase: false).leftPadded(2)):\(String(minor, radix: 16).leftPadded(2)):\(status.st_ino)"
        let own = getpid()
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == "FLOCK", fields[5] == file, let pid = Int32(fields[4]), pid != own else { continue }
            return pid
        }
        return nil
    }
}

extension String {
    /// The string with zeros in front, at least `width` characters in all.
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}
