import Foundation

/// Whether another process holds one of SQLite's locks on a store, and which process,
/// asked with `fcntl(F_GETLK)`: the question takes no lock and writes nothing.
///
/// SQLite's unix VFS locks byte ranges (os_unix.c): in the main file the PENDING byte at
/// 0x40000000, the RESERVED byte after it and the 510 SHARED bytes after that (EXCLUSIVE
/// is a write lock on all of them); in a WAL store's `-shm`, byte 120 is the writer's
/// lock and byte 121 the checkpointer's. Readers only ever hold read locks there, so a
/// write lock on one of those bytes means a process is changing the store.
///
/// ```swift
/// StoreLocks.holder(of: file, forWriting: true)   // 4711: that process is in a write transaction
/// ```
enum StoreLocks {
    private static let pendingByte: off_t = 0x4000_0000
    private static let sharedFirst = pendingByte + 2
    private static let sharedSize: off_t = 510
    private static let walWriteLock: off_t = 120
    private static let walCheckpointLock: off_t = 121

    /// A process (its ID, or 0 when the system does not say) that holds a lock in the way
    /// of this open, or nil.
    ///
    /// A writer is in the way of another writer: RESERVED, PENDING or EXCLUSIVE on the
    /// main file, or the WAL write lock. A reader is in the way only of a process that is
    /// rewriting the main file: PENDING or EXCLUSIVE (a rollback-journal commit, or the
    /// last connection checkpointing as it closes), or the WAL checkpoint lock.
    static func holder(of file: StoreFile.Opened, forWriting: Bool) -> Int32? {
        let main = file.main.descriptor
        if forWriting {
            return writeLockHolder(main, from: pendingByte, length: 2 + sharedSize)
                ?? file.sharedMemory.flatMap { writeLockHolder($0.descriptor, from: walWriteLock, length: 1) }
        }
        return writeLockHolder(main, from: pendingByte, length: 1)
            ?? writeLockHolder(main, from: sharedFirst, length: sharedSize)
            ?? file.sharedMemory.flatMap { writeLockHolder($0.descriptor, from: walCheckpointLock, length: 1) }
    }

    /// The process still in the way of this open (see ``holder(of:forWriting:)``) once
    /// `patience` has passed, or nil as soon as nothing is. Another process's transaction or
    /// checkpoint, or its connection recovering the log as it opens, usually lasts
    /// milliseconds: the open waits for it as SQLite's own busy timeout waits for a lock,
    /// rather than refusing a store another program is merely using.
    static func holder(of file: StoreFile.Opened, forWriting: Bool, afterWaiting patience: Duration) -> Int32? {
        waiting(patience) { holder(of: file, forWriting: forWriting) }
    }

    /// The process that still has the store open through SQLite (see
    /// ``connectionElsewhere(of:)``) once `patience` has passed, or nil as soon as none has.
    static func connectionElsewhere(of file: StoreFile.Opened, afterWaiting patience: Duration) -> Int32? {
        waiting(patience) { connectionElsewhere(of: file) }
    }

    /// What `probe` finds once `patience` has passed, or nil as soon as it finds nothing:
    /// asked again after pauses doubling from 1 ms to 50 ms.
    private static func waiting(_ patience: Duration, _ probe: () -> Int32?) -> Int32? {
        let deadline = ContinuousClock.now + patience
        var pause: UInt32 = 1_000  // µs, doubling to 50 ms
        while let holder = probe() {
            guard ContinuousClock.now < deadline else { return holder }
            usleep(pause)
            pause = min(pause * 2, 50_000)
        }
        return nil
    }

    /// A process (its ID, or 0 when the system does not say) that has the store open
    /// through SQLite, or nil: any lock, shared or not, on the main file's lock bytes, or
    /// on the `-shm`'s lock bytes (a WAL connection holds a shared lock on its last one,
    /// the DMS byte, for as long as it is open). GraphStore's read-only stores take none
    /// (they read with `immutable=1`, in place through `unix-none`, or from a private copy:
    /// ``ReadOnlyAccess``), so what this finds is a writer: another program, or a connection
    /// between its transactions.
    static func connectionElsewhere(of file: StoreFile.Opened) -> Int32? {
        anyLockHolder(file.main.descriptor, from: pendingByte, length: 2 + sharedSize)
            ?? file.sharedMemory.flatMap { anyLockHolder($0.descriptor, from: walWriteLock, length: 9) }
    }

    /// The process holding any lock on a byte of the range: a write lock is asked for,
    /// which every lock conflicts with. Locks of this process never conflict.
    private static func anyLockHolder(_ descriptor: Int32, from start: off_t, length: off_t) -> Int32? {
        lockHolder(descriptor, asking: F_WRLCK, from: start, length: length)
    }

    /// The process holding a write lock on any byte of the range: a read lock is asked
    /// for, which only a write lock conflicts with. Locks of this process never conflict.
    private static func writeLockHolder(_ descriptor: Int32, from start: off_t, length: off_t) -> Int32? {
        lockHolder(descriptor, asking: F_RDLCK, from: start, length: length)
    }

    /// The process whose lock on the range would conflict with a lock of `type` (F_GETLK).
    private static func lockHolder(_ descriptor: Int32, asking type: Int32, from start: off_t, length: off_t) -> Int32? {
        var lock = flock()
        lock.l_type = Int16(type)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = start
        lock.l_len = length
        guard fcntl(descriptor, F_GETLK, &lock) == 0, lock.l_type != Int16(F_UNLCK) else { return nil }
        return lock.l_pid
    }
}
