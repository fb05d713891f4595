/// Why a migration plan could not be made at all: the versions it needs are missing or
/// unreadable, or no version of the bundle fits the store.
///
/// A plan that can be made but that Core Data's rules refuse is not an error: it is a
/// ``MigrationPlan`` whose steps carry ``MigrationRefusal``s.
///
/// Every case has Core Data's code `NSMigrationMissingSourceModelError` (134130): the
/// model a migration needs is missing.
public enum MigrationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A version was named that the bundle does not have.
    case unknownVersion(bundle: String, requested: String, available: [String])
    /// A version the migration needs cannot be read.
    case unreadableVersion(version: String, ModelFileError)
    /// No target was named and the bundle does not say which version is current.
    case noCurrentVersion(bundle: String)
    /// No version of the bundle fits the store; `nearest` are the versions that differ least.
    case noFittingVersion(store: String, bundle: String, nearest: [String])

    /// Core Data's code: `NSMigrationMissingSourceModelError`.
    public var code: Int { 134130 }

    public var description: String {
        switch self {
        case .unknownVersion(let bundle, let requested, let available):
            "\(bundle): no version named \(requested); versions: \(available.joined(separator: ", "))"
        case .unreadableVersion(let version, let error):
            "version \(version) cannot be read: \(error)"
        case .noCurrentVersion(let bundle):
            "\(bundle): the bundle does not say which version is current; name the target version"
        case .noFittingVersion(let store, let bundle, let nearest):
            "\(store): no version of \(bundle) fits the store (Core Data's 134130, missing source model)"
                + (nearest.isEmpty ? "" : "; nearest: \(nearest.joined(separator: ", "))")
        }
    }
}
