/// Why a store's `Z_MODELCACHE` (or a compiled model archive) could not be decoded.
///
/// ``code`` is Core Data's `NSMigrationMissingSourceModelError` (134130): without the cache
/// the store's own model is unavailable.
///
/// ```swift
/// do { _ = try ModelCache(compressed: Data([0x01, 0x02])) }
/// catch { print(error) }   // the model cache is not raw DEFLATE data (…)
/// ```
public enum ModelCacheError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The store has no `Z_MODELCACHE` table, or the table has no row or an empty blob.
    case missing(String)
    /// The blob does not inflate: truncated, or not a raw DEFLATE stream.
    case notCompressed(String)
    /// The inflated bytes are not a property list.
    case notAPropertyList(String)
    /// A property list, but not an `NSKeyedArchiver` archive.
    case notAnArchive(String)
    /// An archive, but not of a managed object model, or one whose objects are inconsistent.
    case malformedArchive(entity: String?, property: String?, reason: String)
    /// The archived model is inconsistent in a way that cannot be loaded faithfully.
    case invalidModel(ModelError)

    /// Core Data's code: `NSMigrationMissingSourceModelError`.
    public var code: Int { 134130 }

    public var description: String {
        switch self {
        case .missing(let reason):
            return "no model cache: \(reason)"
        case .notCompressed(let reason):
            return "the model cache is not raw DEFLATE data: \(reason)"
        case .notAPropertyList(let reason):
            return "the inflated model cache is not a property list (\(reason))"
        case .notAnArchive(let reason):
            return "the model cache is not a keyed archive (\(reason))"
        case .malformedArchive(let entity, let property, let reason):
            let place = [entity, property].compactMap { $0 }.joined(separator: ".")
            return "the model cache does not describe a valid model: \(place.isEmpty ? "" : place + ": ")\(reason)"
        case .invalidModel(let error):
            return "the model in the cache is inconsistent: \(error)"
        }
    }
}
