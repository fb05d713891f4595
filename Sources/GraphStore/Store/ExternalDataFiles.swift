import Foundation

/// The external data files a writable store adds and removes for its transactions, in the
/// order that keeps every committed reference pointing at a whole file, whenever the
/// process is killed:
///
/// 1. a new value's file is written under a temporary name, synced, renamed to its UUID and
///    the folder synced, before the row that references it is written (so before COMMIT);
/// 2. files whose references the transaction replaced or deleted are removed only after
///    COMMIT;
/// 3. a transaction rolled back before COMMIT removes the files it wrote (no row names
///    them); one whose COMMIT failed keeps them, since an orphan file is harmless and a
///    dangling reference is not.
///
/// A kill at any moment leaves at worst an orphan file (or a `.partial` one, never named by
/// a row), which `validate` reports.
final class ExternalDataFiles {
    let folder: StoreSupportFolder
    /// Files written since the transaction began.
    private var written: [String] = []
    /// Files whose rows no longer reference them once the transaction commits.
    private var released: [String] = []
    /// A span of several transactions this one's files also belong to: a migration that
    /// saves its destination in batches (see ``ExternalStorageMove``) removes every file of
    /// the span when it fails after some batches committed.
    private let span: ExternalDataFiles?

    init(folder: StoreSupportFolder, span: ExternalDataFiles? = nil) {
        self.folder = folder
        self.span = span
    }

    /// The prefix and suffix of a file being written (`.<UUID>.partial`).
    static let partialPrefix = "."
    static let partialSuffix = ".partial"

    /// Writes `data` to a new file named by a new upper-case UUID and returns the name; the
    /// file and its folder are synced before this returns.
    func write(_ data: Data) throws(StoreError) -> String {
        try makeFolders()
        let name = UUID().uuidString
        let final = folder.externalDataFile(named: name)
        let partial = folder.externalDataFile(named: Self.partialPrefix + name + Self.partialSuffix)
        let descriptor = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure(partial, "create an external data file") }
        var ok = data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
        let writeError = errno
        if ok, fsync(descriptor) != 0 { ok = false }
        let syncError = errno
        close(descriptor)
        guard ok else {
            unlink(partial)
            throw SystemError(code: writeError != 0 ? writeError : syncError).storeError(path: partial, doing: "write an external data file", forWriting: true)
        }
        guard rename(partial, final) == 0 else {
            let error = failure(final, "name an external data file")
            unlink(partial)
            throw error
        }
        written.append(name)
        span?.written.append(name)
        try sync(folder.externalDataPath)
        return name
    }

    /// The names of the files written since the transaction began (a migration's whole
    /// run is one such span, see ``ExternalStorageMove``).
    var writtenNames: [String] { written }

    /// Marks a file for removal once the transaction commits.
    func release(_ name: String) {
        released.append(name)
    }

    /// The transaction committed: the files it replaced or deleted go.
    func committed() {
        for name in released where !written.contains(name) { unlink(folder.externalDataFile(named: name)) }
        released = []
        written = []
    }

    /// The transaction rolled back before COMMIT: the files it wrote go, the others stay.
    func rolledBack() {
        for name in written { unlink(folder.externalDataFile(named: name)) }
        released = []
        written = []
    }

    /// How far the transaction had got when a savepoint began (see
    /// ``PersistentStore/savepoint(_:)``).
    struct Mark {
        fileprivate let written: Int
        fileprivate let released: Int
    }

    /// The transaction's files so far.
    var mark: Mark { Mark(written: written.count, released: released.count) }

    /// A savepoint rolled back: the files written since `mark` go (no row names them any
    /// more), and the files released since stay (their rows reference them again).
    func rolledBack(to mark: Mark) {
        let undone = written[mark.written...]
        for name in undone { unlink(folder.externalDataFile(named: name)) }
        span?.written.removeAll { undone.contains($0) }
        written.removeSubrange(mark.written...)
        released.removeSubrange(mark.released...)
    }

    /// COMMIT itself failed: what it wrote is kept (see the type's description).
    func forget() {
        released = []
        written = []
    }

    /// Creates the support folder and `_EXTERNAL_DATA` when missing, syncing the folder
    /// each was made in, so that the first file written is reachable after a crash.
    private func makeFolders() throws(StoreError) {
        let store = (folder.path as NSString).deletingLastPathComponent
        for (path, parent) in [(folder.path, store), (folder.externalDataPath, folder.path)] {
            if mkdir(path, 0o755) == 0 {
                try sync(parent)
            } else if errno != EEXIST {
                throw failure(path, "create the store's support folder")
            }
        }
    }

    private func sync(_ directory: String) throws(StoreError) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(directory, "open a folder to sync it") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure(directory, "sync a folder") }
    }

    private func failure(_ path: String, _ operation: String) -> StoreError {
        SystemError(code: errno).storeError(path: path, doing: operation, forWriting: true)
    }
}
