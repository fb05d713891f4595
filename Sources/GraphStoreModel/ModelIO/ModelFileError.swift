/// Why a model file could not be turned into a ``ManagedObjectModel``.
///
/// Every case names the path and says why. ``code`` is Core Data's
/// `NSMigrationMissingSourceModelError` (134130): from the point of view of opening a store,
/// the model it needs is missing.
///
/// ```swift
/// do { _ = try ModelFile(path: "Old.xcdatamodel") }
/// catch { print(error) }   // …/Old.xcdatamodel: legacy Xcode 3 model (elements archive); …
/// ```
public enum ModelFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing exists at the path.
    case fileNotFound(path: String)
    /// The path exists but cannot be read (permissions, a folder where a file was expected, ...).
    case unreadable(path: String, reason: String)
    /// The path is readable but is not an Xcode model (not XML, not a `<model>`, no `contents`).
    case notAModel(path: String, reason: String)
    /// A legacy Xcode 3 model (`elements` archive) whose content could not be read.
    case legacyFormat(path: String, reason: String)
    /// A versioned bundle whose current version cannot be determined.
    case noCurrentVersion(bundle: String, versions: [String], reason: String)
    /// A version was asked for that the bundle does not have.
    case unknownVersion(bundle: String, requested: String, available: [String])
    /// An element of the model is malformed (a missing name, an unknown attribute type, ...).
    case malformed(path: String, entity: String?, property: String?, reason: String)
    /// The model is inconsistent in a way that cannot be loaded faithfully
    /// (a missing parent or destination entity, a property declared twice, ...).
    case invalidModel(path: String, ModelError)

    /// Core Data's code: `NSMigrationMissingSourceModelError`.
    public var code: Int { 134130 }

    /// The file or bundle at fault.
    public var path: String {
        switch self {
        case .fileNotFound(let path), .unreadable(let path, _), .notAModel(let path, _), .legacyFormat(let path, _),
            .malformed(let path, _, _, _), .invalidModel(let path, _):
            path
        case .noCurrentVersion(let bundle, _, _), .unknownVersion(let bundle, _, _):
            bundle
        }
    }

    public var description: String {
        switch self {
        case .fileNotFound(let path):
            return "\(path): no such model file"
        case .unreadable(let path, let reason):
            return "\(path): the model cannot be read (\(reason))"
        case .notAModel(let path, let reason):
            return "\(path): not an Xcode data model (\(reason))"
        case .legacyFormat(let path, let reason):
            return "\(path): legacy Xcode 3 model (elements archive); open it in Xcode to convert it (\(reason))"
        case .noCurrentVersion(let bundle, let versions, let reason):
            return "\(bundle): cannot tell which version is current (\(reason)); versions: \(ModelIOText.list(versions))"
        case .unknownVersion(let bundle, let requested, let available):
            return "\(bundle): no version named \(requested); versions: \(ModelIOText.list(available))"
        case .malformed(let path, let entity, let property, let reason):
            let place = [entity, property].compactMap { $0 }.joined(separator: ".")
            return "\(path): \(place.isEmpty ? "" : place + ": ")\(reason)"
        case .invalidModel(let path, let error):
            return "\(path): \(error)"
        }
    }
}
