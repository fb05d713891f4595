import Foundation
import Synchronization

/// The private copies (see `StoreFile.privateCopy(of:)`) still in use, so that the ones
/// whose store is never released (held in a global, or a process that exits without
/// tearing down) are removed when the process exits rather than left in the temporary
/// directory.
final class PrivateCopies: Sendable {
    /// The process's copies; what is left in it is removed at exit.
    static let inUse: PrivateCopies = {
        let copies = PrivateCopies()
        atexit { PrivateCopies.inUse.removeRemaining() }
        return copies
    }()

    private let directories = Mutex<Set<String>>([])

    /// Records a copy's directory as in use.
    func add(_ directory: String) {
        directories.withLock { _ = $0.insert(directory) }
    }

    /// Removes a copy's directory and forgets it.
    func remove(_ directory: String) {
        directories.withLock { _ = $0.remove(directory) }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Removes every copy still recorded (what the process does at exit).
    func removeRemaining() {
        let remaining = directories.withLock { directories in
            defer { directories = [] }
            return directories
        }
        for directory in remaining { try? FileManager.default.removeItem(atPath: directory) }
    }
}
