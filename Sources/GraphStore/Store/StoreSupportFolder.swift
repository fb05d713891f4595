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

    /// The support folder of the store file at `storePath` (the path is taken as given: a
    /// store opened through a link has its folder beside the link's target, which
    /// ``PersistentStore/supportFolder`` uses).
    public init(storePath: String) {
        let url = URL(fileURLWithPath: storePath)
        let name = url.deletingPathExtension().lastPathComponent
        path = url.deletingLastPathComponent().appendingPathComponent(".\(name)_SUPPORT").path
    }

    /// `_EXTERNAL_DATA`, where the values stored outside the database are.
    public var externalDataPath: String { path + "/_EXTERNAL_DATA" }

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
    /// (nothing to copy). The copy is made under a temporary name and renamed into place,
    /// so a copy cut short never passes for a whole one. A support folder already at the
    /// destination is an error (``StoreError/alreadyExists(path:)``): it belongs to another
    /// store.
    @discardableResult
    public func copy(besideStoreAt storePath: String) throws(StoreError) -> StoreSupportFolder? {
        guard exists else { return nil }
        let destination = StoreSupportFolder(storePath: storePath)
        let manager = FileManager.default
        guard !manager.fileExists(atPath: destination.path) else { throw .alreadyExists(path: destination.path) }
        let partial = destination.path + ".partial-" + UUID().uuidString
        do {
            try manager.copyItem(atPath: path, toPath: partial)
            try manager.moveItem(atPath: partial, toPath: destination.path)
        } catch {
            try? manager.removeItem(atPath: partial)
            throw .fileSystemError(path: destination.path, operation: "copy the support folder \(path)", reason: error.localizedDescription)
        }
        return destination
    }
}
