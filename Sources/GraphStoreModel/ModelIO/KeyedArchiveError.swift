/// Why bytes are not a readable `NSKeyedArchiver` archive.
enum KeyedArchiveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The bytes are not a property list.
    case notAPropertyList(String)
    /// A property list, but not a keyed archive (no `$objects`/`$top`, wrong `$archiver`).
    case notAnArchive(String)
    /// A keyed archive whose object table is inconsistent (a reference out of range, ...).
    case malformed(String)

    var description: String {
        switch self {
        case .notAPropertyList(let reason): "not a property list (\(reason))"
        case .notAnArchive(let reason): "a property list, but not a keyed archive (\(reason))"
        case .malformed(let reason): "a damaged keyed archive (\(reason))"
        }
    }
}
