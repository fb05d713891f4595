/// Why the file a row's external data reference names is not read as the value.
///
/// An external data file is a regular file of the store's support folder, no larger than
/// ``PersistentStore/externalDataSizeLimit``. Anything else in its place, put there by
/// hand or by an attacker, is refused before a byte of it is read: a symbolic link would
/// show a file from elsewhere (`/etc/shadow`) as the value, a device (`/dev/zero`) never
/// ends, a FIFO waits for a writer, a directory is no value.
///
/// ```swift
/// ExternalDataProblem.symbolicLink.description   // "is a symbolic link, which GraphStore does not follow"
/// ```
public enum ExternalDataProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// No file of that name.
    case missing
    /// The name is a symbolic link (whatever it points at).
    case symbolicLink
    /// The support folder or its `_EXTERNAL_DATA` is a symbolic link or no folder, so the
    /// file would be read from elsewhere.
    case folderNotAFolder(path: String)
    /// A FIFO, a device, a directory or a socket (`kind` says which, with its article).
    case notARegularFile(kind: String)
    /// Larger than the limit: `size` bytes.
    case tooLarge(size: Int64, limit: Int64)
    /// The system refused to open or read it (`reason` is its sentence).
    case unreadable(reason: String)

    public var description: String {
        switch self {
        case .missing: "is missing"
        case .symbolicLink: "is a symbolic link, which GraphStore does not follow"
        case .folderNotAFolder(let path): "is under \(path), which is a symbolic link or no folder, so GraphStore does not read it"
        case .notARegularFile(let kind): "is \(kind), not a regular file"
        case .tooLarge(let size, let limit): "is \(size) bytes, more than the \(limit) GraphStore reads as one value"
        case .unreadable(let reason): "cannot be read: \(reason)"
        }
    }
}
