import Foundation
import Synchronization

/// The private copies (see `StoreFile.privateCopy(of:path:)`) still in use, so that none
/// is left in the temporary directory however the process ends: a copy is removed when
/// its store is released or fails to open, the ones whose store is never released (held
/// in a global, or a process that exits without tearing down) when the process exits, and
/// all of them when a signal ends the process (``PrivateCopySignals``).
final class PrivateCopies: Sendable {
    /// The process's copies; what is left in it is removed at exit.
    static let inUse: PrivateCopies = {
        let copies = PrivateCopies()
        atexit { PrivateCopies.inUse.removeRemaining() }
        return copies
    }()

    /// A copy's folder, the name of the store file in it, and its signal slot.
    private struct Copy {
        var file: String
        var slot: Int?
    }

    private let directories = Mutex<[String: Copy]>([:])

    /// Records a copy's folder, holding `file` and the files SQLite makes beside it, as in
    /// use (before anything is copied into it).
    func add(directory: String, file: String) {
        let slot = PrivateCopySignals.register(Self.files(in: directory, named: file) + [directory])
        directories.withLock { $0[directory] = Copy(file: file, slot: slot) }
    }

    /// Removes a copy's folder and forgets it.
    func remove(_ directory: String) {
        guard let copy = directories.withLock({ $0.removeValue(forKey: directory) }) else { return }
        Self.delete(directory, copy)
    }

    /// Removes every copy still recorded (what the process does at exit).
    func removeRemaining() {
        let remaining = directories.withLock { directories in
            defer { directories = [:] }
            return directories
        }
        for (directory, copy) in remaining { Self.delete(directory, copy) }
    }

    private static func delete(_ directory: String, _ copy: Copy) {
        copy.slot.map(PrivateCopySignals.forget)
        for file in files(in: directory, named: copy.file) { unlink(file) }
        // Anything else SQLite may have left there.
        if rmdir(directory) != 0, errno != ENOENT { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// The store's copy and the log, index and journal SQLite keeps beside it.
    private static func files(in directory: String, named file: String) -> [String] {
        ["", "-wal", "-shm", "-journal"].map { directory + "/" + file + $0 }
    }
}

extension PersistentStore {
    /// Removes the private copies of every store of the process (see ``isReadOnly``), for a
    /// program about to end itself by a signal, which skips `atexit`: the stores that use
    /// them must not be read afterwards.
    ///
    /// ```swift
    /// PersistentStore.removePrivateCopies()
    /// signal(SIGPIPE, SIG_DFL)
    /// raise(SIGPIPE)
    /// ```
    public static func removePrivateCopies() {
        PrivateCopies.inUse.removeRemaining()
    }
}
