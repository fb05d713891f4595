import Foundation

/// Every version of a versioned model bundle (`Name.xcdatamodeld`), read, in the bundle's
/// order, with each version's entity version hashes.
///
/// The order is the bundle's natural order of version names (`Model`, `Model 2`, …,
/// `Model 10`), which is the order progressive migrations walk. A version that cannot be
/// read is kept aside in ``unreadable`` with its error, so one broken version does not
/// hide the others.
///
/// ```swift
/// let versions = try ModelVersions(path: "App.xcdatamodeld")
/// versions.names                       // ["App", "App 2", "App 3"]
/// versions.currentVersion              // "App 3"
/// versions.identicalVersions(to: "App 2")   // versions Core Data cannot tell from App 2
/// ```
public struct ModelVersions: Sendable {
    /// One readable version of the bundle.
    public struct Version: Sendable {
        /// The version's name (its folder name without `.xcdatamodel`).
        public let name: String
        /// The model.
        public let model: ManagedObjectModel
        /// What was odd in the version's file and how it was handled.
        public let warnings: [ModelWarning]
        /// Each entity's version hash (``ManagedObjectModel/entityVersionHashes``).
        public let versionHashes: [String: Data]
        /// The entities whose hash relies on a feature no known store confirms, with why
        /// (``ManagedObjectModel/unverifiedVersionHashes``).
        public let unverifiedHashes: [String: String]

        /// A version made from a model (used by tests and by callers that build models in
        /// Swift).
        public init(name: String, model: ManagedObjectModel, warnings: [ModelWarning] = []) {
            self.name = name
            self.model = model
            self.warnings = warnings
            self.versionHashes = model.entityVersionHashes
            self.unverifiedHashes = model.unverifiedVersionHashes
        }
    }

    /// The bundle's path, as given.
    public let path: String
    /// Every version name, readable or not, in the bundle's order.
    public let names: [String]
    /// The bundle's current version, when it says.
    public let currentVersion: String?
    /// The readable versions, in the bundle's order.
    public let versions: [Version]
    /// The versions that could not be read, with why.
    public let unreadable: [String: ModelFileError]

    /// Reads every version of a bundle.
    ///
    /// - Throws: ``ModelFileError`` when the path is not a readable bundle; a version that
    ///   cannot be read is listed in ``unreadable`` instead.
    public init(path: String) throws(ModelFileError) {
        let bundle = try ModelBundle(path: path)
        var versions: [Version] = []
        var unreadable: [String: ModelFileError] = [:]
        for name in bundle.versions {
            do {
                let file = try ModelFile(path: path, version: name)
                versions.append(Version(name: name, model: file.model, warnings: file.warnings))
            } catch {
                unreadable[name] = error
            }
        }
        self.init(path: path, names: bundle.versions, currentVersion: bundle.currentVersion, versions: versions, unreadable: unreadable)
    }

    /// Versions given as models, in order (the last is current unless `currentVersion`
    /// names another).
    ///
    /// ```swift
    /// let versions = ModelVersions(path: "built in Swift", versions: [.init(name: "v1", model: v1), .init(name: "v2", model: v2)])
    /// ```
    /// The name under which a store's own model (its `Z_MODELCACHE`) is the source of a
    /// migration when no version of the bundle fits the store (see ``addingStoreModel(_:)``).
    public static let storeModelName = "the store's own model (Z_MODELCACHE)"

    /// The store's own model, when it was added as a source (not one of ``names``).
    public private(set) var storeModel: Version?

    /// The versions with a store's own model added as a source a migration can start from:
    /// found by ``version(named:)`` under ``storeModelName``, in no place of the bundle's order.
    public func addingStoreModel(_ model: ManagedObjectModel) -> ModelVersions {
        var copy = self
        copy.storeModel = Version(name: ModelVersions.storeModelName, model: model)
        return copy
    }

    public init(path: String, versions: [Version], currentVersion: String? = nil) {
        self.init(
            path: path, names: versions.map(\.name), currentVersion: currentVersion ?? versions.last?.name, versions: versions,
            unreadable: [:])
    }

    private init(path: String, names: [String], currentVersion: String?, versions: [Version], unreadable: [String: ModelFileError]) {
        self.path = path
        self.names = names
        self.currentVersion = currentVersion
        self.versions = versions
        self.unreadable = unreadable
    }

    /// The readable version with this name (with or without `.xcdatamodel`).
    public func version(named name: String) -> Version? {
        let bare = ModelVersions.bareName(name)
        return versions.first { $0.name == bare } ?? (storeModel?.name == name ? storeModel : nil)
    }

    /// The position of a version in the bundle's order, readable or not.
    public func position(of name: String) -> Int? {
        names.firstIndex(of: ModelVersions.bareName(name))
    }

    /// The other versions whose entity version hashes are exactly this version's: Core
    /// Data takes them for the same model, so a store written by one fits them all.
    public func identicalVersions(to name: String) -> [String] {
        guard let version = version(named: name) else { return [] }
        return versions.filter { $0.name != version.name && $0.versionHashes == version.versionHashes }.map(\.name)
    }

    /// The name asked for, checked: the readable version, or the error that says why not.
    func require(_ name: String) throws(MigrationError) -> Version {
        if let version = version(named: name) { return version }
        let bare = ModelVersions.bareName(name)
        if let error = unreadable[bare] { throw .unreadableVersion(version: bare, error) }
        throw .unknownVersion(bundle: path, requested: name, available: names)
    }

    static func bareName(_ name: String) -> String {
        name.hasSuffix(".xcdatamodel") ? String(name.dropLast(".xcdatamodel".count)) : name
    }
}
