import Foundation

/// The folder Core Data keeps beside a store for what is not inside the database file:
/// `.` + the store file's name without its extension + `_SUPPORT`. Its `_EXTERNAL_DATA`
/// folder holds the values of attributes that allow external storage, one file each, named
/// by the UUID the row holds (see `docs/values.md`).
///
/// A store and its support folder are one thing: whatever copies or replaces a store file
/// (a backup, a migration, a seed) copies the folder with it, or the rows' references point
/// at files that are not there. A store opened read-only from a private copy, or through a
/// symbolic link, reads the folder beside the real store file (``PersistentStore/supportFolder``),
/// in place and read-only.
///
/// ```swift
/// let folder = StoreSupportFolder(storePath: "/data/Books.sqlite")
/// folder.path               // "/data/.Books_SUPPORT"
/// folder.externalDataPath   // "/data/.Books_SUPPORT/_EXTERNAL_DATA"
/// try folder.copy(besideStoreAt: "/backup/Books.sqlite")   // makes /backup/.Books_SUPPORT
/// ```
public struct StoreSupportFolder: Sendable, Hashable {
    /// The folder's path.
    public let path: String
    /// The path of the support folder whose external data files this one lends, read when
    /// this one has no file of a name: a migration's dry run writes beside a scratch file
    /// in the temporary directory and reads the store's own files in place (never through
    /// links, which external data reading does not follow).
    private let lenderPath: String?

    /// The support folder of the store file at `storePath` (the path is taken as given: a
    /// store opened through a link has its folder beside the link's target, which
    /// ``PersistentStore/supportFolder`` uses).
    public init(storePath: String) {
        self.init(storePath: storePath, lendingFrom: nil)
    }

    /// The support folder of the store file at `storePath`, whose missing external data
    /// files are read from `lender`'s.
    init(storePath: String, lendingFrom lender: StoreSupportFolder?) {
        let url = URL(fileURLWithPath: storePath)
        let name = url.deletingPathExtension().lastPathComponent
        path = url.deletingLastPathComponent().appendingPathComponent(".\(name)_SUPPORT").path
        lenderPath = lender?.path
    }

    private init(folderPath: String) {
        path = folderPath
        lenderPath = nil
    }

    /// The folder that lends this one its files, if any.
    var lender: StoreSupportFolder? { lenderPath.map { StoreSupportFolder(folderPath: $0) } }

    /// `_EXTERNAL_DATA`, where the values stored outside the database are.
    public var externalDataPath: String { path + "/" + Self.externalDataFolder }

    /// The name of the folder, inside a support folder, that holds external data files.
    static let externalDataFolder = "_EXTERNAL_DATA"

    /// Whether the folder exists.
    public var exists: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The file that holds the external value named `name` (as a row's reference names it).
    public func externalDataFile(named name: String) -> String {
        externalDataPath + "/" + name
    }

    /// The names of the files in `_EXTERNAL_DATA`, sorted (none when the folder is absent).
    public func externalDataFileNames() throws(StoreError) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: externalDataPath).sorted()
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return []
        } catch {
            throw .fileSystemError(path: externalDataPath, operation: "list the external data files", reason: "\(error.localizedDescription)")
        }
    }

    /// Copies the folder to sit beside the store file at `storePath` (its own support
    /// folder there), and returns that folder; nil when this store has no support folder
    /// (nothing to copy). The copy is made under a temporary name (``partialSuffix`` + a
    /// UUID) and renamed into place, so a copy cut short never passes for a whole one; the
    /// copying process holds an exclusive `flock` on it meanwhile, which tells
    /// ``removeAbandonedCopies()`` a copy in progress from one a killed process left. A
    /// support folder already at the destination is an error
    /// (``StoreError/alreadyExists(path:)``): it belongs to another store. The external data
    /// files named in `leavingOut` are not part of the copy.
    @discardableResult
    public func copy(besideStoreAt storePath: String, leavingOut: Set<String> = []) throws(StoreError) -> StoreSupportFolder? {
        guard exists else { return nil }
        let destination = StoreSupportFolder(storePath: storePath)
        let manager = FileManager.default
        guard !manager.fileExists(atPath: destination.path) else { throw .alreadyExists(path: destination.path) }
        let partial = destination.path + Self.partialSuffix + UUID().uuidString
        var lock: Int32 = -1
        defer { if lock >= 0 { close(lock) } }
        do {
            guard mkdir(partial, 0o755) == 0 else { throw SystemError(code: errno) }
            lock = open(partial, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard lock >= 0, flock(lock, LOCK_EX) == 0 else { throw SystemError(code: errno) }
            for child in try manager.contentsOfDirectory(atPath: path) {
                try manager.copyItem(atPath: path + "/" + child, toPath: partial + "/" + child)
            }
            for name in leavingOut where ExternalDataReference.isSafe(name) {
                let file = partial + "/" + Self.externalDataFolder + "/" + name
                if manager.fileExists(atPath: file) { try manager.removeItem(atPath: file) }
            }
            try manager.moveItem(atPath: partial, toPath: destination.path)
        } catch {
            try? manager.removeItem(atPath: partial)
            let reason = (error as? SystemError)?.message ?? error.localizedDescription
            throw .fileSystemError(path: destination.path, operation: "copy the support folder \(path)", reason: reason)
        }
        return destination
    }

    /// What follows a support folder's name in the name of a copy of it being made:
    /// `.<name>_SUPPORT.partial-<UUID>`.
    public static let partialSuffix = ".partial-"

    /// Removes the copies of this folder that a process killed while making them left
    /// beside it (`.<name>_SUPPORT.partial-<UUID>`, see ``copy(besideStoreAt:leavingOut:)``),
    /// and returns their paths. A copy another process is still making (it holds its lock)
    /// is left alone, as is anything else in the directory.
    @discardableResult
    public func removeAbandonedCopies() -> [String] {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let prefix = url.lastPathComponent + Self.partialSuffix
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var removed: [String] = []
        for name in names.sorted() where name.hasPrefix(prefix) {
            let partial = directory + "/" + name
            let descriptor = open(partial, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { continue }
            if (try? FileManager.default.removeItem(atPath: partial)) != nil { removed.append(partial) }
        }
        return removed
    }
}
