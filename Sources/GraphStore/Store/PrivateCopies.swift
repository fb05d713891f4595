import Foundation
import Synchronization

/// The private copies (see `StoreFile.privateCopy(of:)`) that are still in use, so that
/// the ones whose store is never released (held in a global, or a process that exits
/// without tearing down) are removed when the process exits rather than left in the
/// temporary directory.
enum PrivateCopies {
    private static let directories = Mutex<Set<String>>([])
    private static let removalAtExit: Void = {
        atexit { PrivateCopies.removeAll() }
    }()

    /// Records a copy's directory as in use.
    static func add(_ directory: String) {
        _ = removalAtExit
        directories.withLock { _ = $0.insert(directory) }
    }

    /// Removes a copy's directory and forgets it.
    static func remove(_ directory: String) {
        directories.withLock { _ = $0.remove(directory) }
        try? FileManager.default.removeItem(atPath: directory)
    }

    private static func removeAll() {
        let remaining = directories.withLock { directories in
            defer { directories = [] }
            return directories
        }
        for directory in remaining { try? FileManager.default.removeItem(atPath: directory) }
    }
}
