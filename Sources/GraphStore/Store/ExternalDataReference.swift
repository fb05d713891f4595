import Foundation

/// A value kept outside the database: the file in the store's support folder that a row's
/// `0x02` reference names. Holding one reads nothing; the file is read when the value is
/// asked for (``ManagedObject/value(forKey:)``, ``StoredRow/attributeValue(at:)``).
///
/// ```swift
/// if let reference = try user.externalDataReference(forKey: "imageMediumData") {
///     print(reference.name, reference.exists)   // 30084A1C-76CF-4976-8312-8E8EFCF6F510 false
/// }
/// ```
public struct ExternalDataReference: Sendable, Hashable, CustomStringConvertible {
    /// The file's name as the row holds it: an upper-case UUID when Core Data or GraphStore
    /// wrote it.
    public let name: String
    /// The file's path, in the support folder's `_EXTERNAL_DATA`.
    public let path: String

    init(name: String, folder: StoreSupportFolder) {
        self.name = name
        self.path = folder.externalDataFile(named: name)
    }

    /// Whether the file is there.
    public var exists: Bool { access(path, F_OK) == 0 }

    public var description: String { name }

    /// Whether `name` can name a file of `_EXTERNAL_DATA` (not empty, no folder separator,
    /// not `.` or `..`): a reference that could reach outside the folder is not followed.
    static func isSafe(_ name: String) -> Bool {
        !name.isEmpty && !name.contains("/") && name != "." && name != ".." && !name.contains("\0")
    }

    /// The file's bytes; a missing file is nil, any other failure a system error.
    func contents() -> Result<Data?, SystemError> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            return errno == ENOENT ? .success(nil) : .failure(SystemError(code: errno))
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            return .success(try handle.readToEnd() ?? Data())
        } catch {
            return .failure(SystemError(code: (error as NSError).code == 0 ? EIO : Int32((error as NSError).code)))
        }
    }
}
