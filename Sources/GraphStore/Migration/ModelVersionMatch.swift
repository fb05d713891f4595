import Foundation

/// Which version of a model bundle a store is: every version compared with what the store
/// says about itself, the versions that fit, how that was decided, and for the others what
/// differs.
///
/// A version fits when its entity version hashes equal the store's
/// `NSStoreModelVersionHashes` exactly, every entity both ways, as Core Data's
/// `isConfiguration(withName:compatibleWithStoreMetadata:)` decides. Where the hashes
/// cannot decide (the store has none, or the only differing entities have hashes
/// GraphStore computes with an unverified guess), the version is compared with the
/// store's own model in `Z_MODELCACHE` on every hash input, and without a cache with the
/// store's tables and columns. ``Candidate/method`` says which decided.
///
/// ```swift
/// let store = try PersistentStore(path: "old.sqlite")
/// let match = try ModelVersionMatch(store: store, versions: ModelVersions(path: "App.xcdatamodeld"))
/// match.storeVersion               // "App 2"
/// match.candidates.map(\.fits)     // [false, true, false]
/// ```
public struct ModelVersionMatch: Sendable {
    /// What decided whether a version fits.
    public enum Method: String, Sendable, Hashable {
        /// The entity version hashes, compared with the store's `NSStoreModelVersionHashes`.
        case versionHashes = "version hashes"
        /// The store's own model (`Z_MODELCACHE`), compared on every hash input.
        case modelCache = "model cache"
        /// The store's tables and columns (what opening the store with the version finds,
        /// both ways); blind to what they do not show (optionality, for one).
        case tablesAndColumns = "tables and columns"
    }

    /// One version of the bundle, compared with the store.
    public struct Candidate: Sendable {
        /// The version's name.
        public var name: String
        /// Whether it is the bundle's current version.
        public var isCurrent: Bool
        /// Whether it fits the store.
        public var fits: Bool
        /// What decided.
        public var method: Method
        /// The store's entities whose hash this version's hash equals (0 when the store has
        /// no hashes).
        public var agreeingHashes: Int
        /// How many entities the store's hashes and the version have between them (0 when
        /// the store has no hashes).
        public var entityCount: Int
        /// What differs from the store (empty when it fits).
        public var differences: [ModelDifference]
        /// The other versions with exactly this version's hashes.
        public var identicalVersions: [String]
        /// Why the version cannot be read, when it cannot (it then does not fit).
        public var problem: String?
    }

    /// The store's path.
    public var store: String
    /// The bundle's path.
    public var bundle: String
    /// Every version of the bundle, in its order.
    public var candidates: [Candidate]
    /// The store's version: the one that fits; among several that fit (versions Core Data
    /// cannot tell apart), the one whose version identifiers are the store's, else the
    /// latest. Nil when none fits.
    public var storeVersion: String?
    /// Why ``storeVersion`` was chosen among several, when it was.
    public var choice: String?
    /// The store's objects of exactly each entity.
    public var objectCounts: [String: Int]
    /// The store's own model from its `Z_MODELCACHE`, when it decodes and its entity
    /// version hashes are the store's `NSStoreModelVersionHashes` (a cache that does not
    /// describe the store is not taken).
    public var storeModel: ManagedObjectModel?

    /// The names of the versions that fit.
    public var fitting: [String] { candidates.filter(\.fits).map(\.name) }

    /// When none fits, the versions that differ least (most agreeing hashes, then fewest
    /// differences); empty when one fits.
    public var nearest: [String] {
        guard fitting.isEmpty else { return [] }
        let readable = candidates.filter { $0.problem == nil }
        let rank = { (c: Candidate) in (c.agreeingHashes, -c.differences.count) }
        guard let best = readable.map(rank).max(by: <) else { return [] }
        return readable.filter { rank($0) == best }.map(\.name)
    }

    /// Compares every version of `versions` with the store.
    ///
    /// - Throws: ``StoreError`` when the store's objects cannot be counted.
    public init(store: PersistentStore, versions: ModelVersions) throws(StoreError) {
        self.init(facts: try StoreFacts(store), versions: versions)
    }

    init(facts: StoreFacts, versions: ModelVersions) {
        store = facts.path
        bundle = versions.path
        objectCounts = facts.objectCounts
        storeModel = facts.cachedModel.flatMap { ModelVersionMatch.describesStore($0, hashes: facts.versionHashes) ? $0 : nil }
        candidates = versions.names.map { name in
            guard let version = versions.version(named: name) else {
                return Candidate(
                    name: name, isCurrent: name == versions.currentVersion, fits: false, method: .versionHashes, agreeingHashes: 0,
                    entityCount: 0, differences: [], identicalVersions: [], problem: versions.unreadable[name].map { "\($0)" } ?? "unreadable")
            }
            var candidate = ModelVersionMatch.compare(version, with: facts)
            candidate.isCurrent = name == versions.currentVersion
            candidate.identicalVersions = versions.identicalVersions(to: name)
            return candidate
        }
        (storeVersion, choice) = ModelVersionMatch.choose(among: candidates.filter(\.fits), versions: versions, identifiers: facts.versionIdentifiers)
    }

    // MARK: - Deciding

    /// Whether a store's cached model is the model of its metadata: the hashes GraphStore
    /// computes for it are the store's, except where the computation is not verified.
    private static func describesStore(_ cached: ManagedObjectModel, hashes: [String: Data]) -> Bool {
        hashes.isEmpty || agreement(of: hashes, with: cached.computedVersionHashes, unverified: cached.unverifiedVersionHashes) != .different
    }

    /// How a store's version hashes compare with a model's.
    private enum HashAgreement { case same, undecided, different }

    /// The same hashes; the same entities with hashes that differ only where GraphStore's
    /// computation of the model's hash is not verified (undecided: the models must be
    /// compared); or different.
    private static func agreement(of hashes: [String: Data], with model: [String: Data], unverified: [String: String]) -> HashAgreement {
        if hashes == model { return .same }
        guard Set(hashes.keys) == Set(model.keys) else { return .different }
        return hashes.allSatisfy { model[$0.key] == $0.value || unverified[$0.key] != nil } ? .undecided : .different
    }

    private static func compare(_ version: ModelVersions.Version, with facts: StoreFacts) -> Candidate {
        let hashes = facts.versionHashes
        let agreeing = hashes.filter { version.versionHashes[$0.key] == $0.value }.count
        let entityCount = hashes.isEmpty ? 0 : Set(hashes.keys).union(version.versionHashes.keys).count
        var candidate = Candidate(
            name: version.name, isCurrent: false, fits: false, method: .versionHashes, agreeingHashes: agreeing, entityCount: entityCount,
            differences: [], identicalVersions: [], problem: nil)
        if !hashes.isEmpty {
            switch agreement(of: hashes, with: version.versionHashes, unverified: version.unverifiedHashes) {
            case .same:
                candidate.fits = true
                return candidate
            case .different:
                candidate.differences = facts.cachedModel.map { ModelDifference.between(store: $0, version: version.model) }
                    ?? ModelDifference.between(storeHashes: hashes, version: version.versionHashes) + facts.tableDifferences(with: version.model)
                return candidate
            case .undecided:
                break
            }
        }
        if let cached = facts.cachedModel {
            candidate.method = .modelCache
            candidate.differences = ModelDifference.between(store: cached, version: version.model)
        } else {
            candidate.method = .tablesAndColumns
            candidate.differences = facts.tableDifferences(with: version.model)
        }
        candidate.fits = candidate.differences.isEmpty
        return candidate
    }

    private static func choose(among fitting: [Candidate], versions: ModelVersions, identifiers: Set<String>) -> (String?, String?) {
        guard fitting.count > 1 else { return (fitting.first?.name, nil) }
        let named = fitting.filter { candidate in
            let own = Set(versions.version(named: candidate.name)?.model.versionIdentifiers.filter { !$0.isEmpty } ?? [])
            return !identifiers.isEmpty && own == identifiers
        }
        let names = fitting.map(\.name).joined(separator: ", ")
        if named.count == 1 {
            return (named[0].name, "\(names) fit; the store's NSStoreModelVersionIdentifiers (\(identifiers.sorted().joined(separator: ", "))) name \(named[0].name)")
        }
        let latest = fitting[fitting.count - 1].name
        return (latest, "\(names) fit and Core Data cannot tell them apart; taking the latest, \(latest)")
    }
}
