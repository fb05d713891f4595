/// A migration from one version of a model bundle to another, worked out before anything
/// is written. By default it is one step straight from the store's version to the target,
/// inferred as Core Data's automatic lightweight migration infers it
/// (``Route/inferred``): Core Data never looks at the versions in between. A plan can
/// instead walk every version (v1 → v2 → … → current, one inferred step per pair of
/// neighbours, as objc.io's progressive migration and CoreStore's chains do:
/// ``Route/everyVersion``) or pass through named versions (``Route/through(_:)``).
///
/// Neighbouring versions with identical entity version hashes are one model to Core Data:
/// a walk passes through them as one, keeping the version it reached first as the source
/// of the next step (their renaming identifiers may differ, and Core Data could take
/// either; the step lists the versions passed over in ``MigrationStep/skipped``). Only a
/// target identical to the version before it gets a step of its own, which changes nothing
/// but the store's metadata.
///
/// The whole plan is worked out before anything could be written, and a plan with any
/// refused step is refused as a whole (``isRefused``). Counting a store's objects
/// (``counted(_:)``) fills in how many objects each step carries. Where the one inferred
/// step and a walk carry different values (a renaming identifier changed along the way),
/// the plan names them (``valuesOnlyTheWalkCarries``, ``valuesOnlyCoreDataCarries``).
///
/// ```swift
/// let versions = try ModelVersions(path: "App.xcdatamodeld")
/// let plan = try MigrationPlan(versions: versions, from: "App", to: nil)   // to the current version
/// print(plan.text)
/// let walk = try MigrationPlan(versions: versions, from: "App", route: .everyVersion)
/// ```
public struct MigrationPlan: Sendable, Hashable {
    /// The bundle's path.
    public var bundle: String
    /// The version the migration starts from (the store's version).
    public var sourceVersion: String
    /// The version it ends at.
    public var targetVersion: String
    /// Whether the target is the bundle's current version.
    public var targetIsCurrent: Bool
    /// The steps, in order; empty when the source is the target.
    public var steps: [MigrationStep]
    /// Whether the target comes before the source in the bundle's order (the chain walks
    /// the versions backwards).
    public var isBackward: Bool
    /// What the plan knows about the store it was made for, when it was made for one.
    public var store: Store?
    /// Which versions the plan passes through.
    public var route: Route
    /// The one mapping Core Data infers straight from the source version to the target,
    /// when the plan has more than one step (see ``valuesOnlyCoreDataCarries``).
    public var directMapping: InferredMapping?
    /// The steps a walk through every version would take, when the plan is one inferred
    /// step over versions in between (see ``valuesOnlyTheWalkCarries``).
    public var walk: [MigrationStep]?
    /// The mapping models the plan looked at (see ``using(_:)``).
    public var mappingModels: [FoundMappingModel] = []

    /// Which versions a migration passes through.
    public enum Route: Sendable, Hashable {
        /// One step straight from the source version to the target, inferred as Core
        /// Data's automatic lightweight migration infers it (the default).
        case inferred
        /// Every version of the bundle between the two, one inferred step per pair of
        /// neighbours, in the bundle's order (a progressive migration).
        case everyVersion
        /// The named versions, in the order given, then the target: one inferred step
        /// between each.
        case through([String])
    }

    /// The store a plan was made for, and how its version was recognised.
    public struct Store: Sendable, Hashable {
        /// The store's path.
        public var path: String
        /// What decided that the store is at ``MigrationPlan/sourceVersion``.
        public var method: ModelVersionMatch.Method
        /// Why that version was taken among several that fit, when it was.
        public var choice: String?
        /// Tables of the file that neither the model nor Core Data's own bookkeeping and
        /// framework entities account for: the migrated store does not have them (the
        /// backup keeps them).
        public var tablesNotCarried: [String] = []
        /// The framework's own tables (persistent history's `ATRANSACTION`, `ACHANGE`, …)
        /// when a step runs a mapping model: its new file holds what the mapping makes, not
        /// those (the backup keeps them).
        public var frameworkTablesNotCarried: [String] = []
    }

    /// Every refusal of every step.
    public var refusals: [MigrationRefusal] { steps.flatMap(\.mapping.refusals) }
    /// Whether any step is refused: the migration cannot run.
    public var isRefused: Bool { steps.contains { $0.mapping.isRefused } }
    /// Whether a step changes an attribute's "Allows External Storage", so that values move
    /// between the table and files.
    var movesExternalData: Bool {
        steps.contains { step in
            step.mapping.entities.contains { entity in
                entity.attributes.contains { attribute in
                    attribute.changes.contains { if case .externalStorageChanged = $0 { true } else { false } }
                }
            }
        }
    }

    /// Plans the migration from `source` to `target` (the bundle's current version when
    /// nil) along `route`.
    ///
    /// - Throws: ``MigrationError`` when a version is unknown or unreadable, or no target
    ///   is named and the bundle has no current version.
    public init(versions: ModelVersions, from source: String, to target: String? = nil, route: Route = .inferred) throws(MigrationError) {
        guard let target = target ?? versions.currentVersion else { throw .noCurrentVersion(bundle: versions.path) }
        let from = try versions.require(source)
        let to = try versions.require(target)
        let start = versions.position(of: from.name) ?? 0
        let end = versions.position(of: to.name) ?? 0
        // The walk is worked out for the one inferred step too, to name what it would carry
        // that the one step does not; a version between that cannot be read stops only a walk.
        let walk = switch route {
        case .everyVersion: try MigrationPlan.walk(versions, from: from, to: to)
        case .inferred: (try? MigrationPlan.walk(versions, from: from, to: to)) ?? []
        case .through: [MigrationStep]()
        }
        switch route {
        case .inferred:
            steps = MigrationPlan.steps(through: [to], from: from)
        case .everyVersion:
            steps = walk
        case .through(let names):
            steps = try MigrationPlan.steps(through: names.map { name throws(MigrationError) in try versions.require(name) } + [to], from: from)
        }
        self.bundle = versions.path
        self.sourceVersion = from.name
        self.targetVersion = to.name
        self.targetIsCurrent = to.name == versions.currentVersion
        self.route = route
        self.isBackward = end < start
        self.store = nil
        self.directMapping = steps.count > 1 ? InferredMapping(from: from, to: to) : nil
        self.walk = route == .inferred && walk.count > 1 ? walk : nil
    }

    /// The steps of a walk through every version from `from` to `to` in the bundle's
    /// order (backwards when `to` comes first), passing over versions identical to the one
    /// before them.
    private static func walk(_ versions: ModelVersions, from: ModelVersions.Version, to: ModelVersions.Version) throws(MigrationError) -> [MigrationStep] {
        // A store's own model has no place in the bundle's order: one step from it.
        guard let start = versions.position(of: from.name) else { return steps(through: [to], from: from) }
        let end = versions.position(of: to.name) ?? 0
        let stride = start <= end ? 1 : -1
        var steps: [MigrationStep] = []
        var previous = from
        var skipped: [String] = []
        for position in Swift.stride(from: start + stride, through: end, by: stride) where start != end {
            let next = try versions.require(versions.names[position])
            let identical = previous.versionHashes == next.versionHashes
            if identical, position != end {
                skipped.append(next.name)
                continue
            }
            steps.append(MigrationStep(
                source: previous.name, destination: next.name, mapping: InferredMapping(from: previous, to: next),
                hasIdenticalHashes: identical, skipped: skipped))
            previous = next
            skipped = []
        }
        return steps
    }

    /// One inferred step to each of `waypoints` in turn, starting at `from`; a waypoint
    /// that is the version already reached adds no step.
    private static func steps(through waypoints: [ModelVersions.Version], from: ModelVersions.Version) -> [MigrationStep] {
        var steps: [MigrationStep] = []
        var previous = from
        for next in waypoints where next.name != previous.name {
            steps.append(MigrationStep(
                source: previous.name, destination: next.name, mapping: InferredMapping(from: previous, to: next),
                hasIdenticalHashes: previous.versionHashes == next.versionHashes, skipped: []))
            previous = next
        }
        return steps
    }

    /// Plans the migration of a store whose version `match` found, to `target` (the
    /// bundle's current version when nil) along `route`, with the store's object counts filled in, and
    /// the first step refused when a to-many becoming a to-one would lose links (an object
    /// with several destinations: see ``MigrationStep``), and each step that one of
    /// `mappingModels` fits refused (see ``using(_:)``).
    ///
    /// ```swift
    /// let match = try ModelVersionMatch(store: store, versions: versions)
    /// let plan = try MigrationPlan(match: match, versions: versions)
    /// ```
    ///
    /// - Throws: ``MigrationError/noFittingVersion(store:bundle:nearest:)`` when no version
    ///   fits the store, and the errors of ``init(versions:from:to:)``.
    public init(
        match: ModelVersionMatch, versions: ModelVersions, to target: String? = nil, route: Route = .inferred,
        mappingModels: [MappingModelCandidate] = [], policies: MigrationPolicies = MigrationPolicies()
    ) throws(MigrationError) {
        let (versions, source, method, choice) = try MigrationPlan.source(of: match, versions: versions)
        self = try MigrationPlan(versions: versions, from: source, to: target, route: route).counted(match.objectCounts)
            .using(mappingModels, versions: versions, policies: policies)
        store = Store(path: match.store, method: method, choice: choice)
        guard !steps.isEmpty, let version = versions.version(named: source) else { return }
        // One read of the store at its own version serves both checks.
        let opened = Result { () throws(StoreError) in
            try PersistentStore(path: match.store, model: version.model, origin: .given, readOnly: true)
        }
        self = checkingRows(of: opened)
        if case .success(let store) = opened { self = namingTablesNotCarried(in: store) }
    }

    /// The version a store's migration starts from: the version that fits it, or, when
    /// none does, the store's own model from its `Z_MODELCACHE` (added to the versions as
    /// ``ModelVersions/storeModelName``). Core Data is taken to do the same when the app no
    /// longer ships the store's version (its stores keep their model for that; uncertain).
    static func source(of match: ModelVersionMatch, versions: ModelVersions) throws(MigrationError)
        -> (ModelVersions, String, ModelVersionMatch.Method, String?)
    {
        if let source = match.storeVersion, let candidate = match.candidates.first(where: { $0.name == source }) {
            return (versions, source, candidate.method, match.choice)
        }
        guard let model = match.storeModel else {
            throw .noFittingVersion(store: match.store, bundle: match.bundle, nearest: match.nearest)
        }
        let nearest = match.nearest.isEmpty ? "" : " (nearest: \(match.nearest.joined(separator: ", ")))"
        return (versions.addingStoreModel(model), ModelVersions.storeModelName, .modelCache,
            "no version of the bundle fits the store\(nearest); its own model, kept in Z_MODELCACHE, is the source, as Core Data takes it when the app no longer has the store's version (uncertain)")
    }

    /// The plan with each step's object counts filled in from the store's counts (objects
    /// of exactly each entity, by source entity name), carried from step to step.
    /// Refusals that hold only for existing objects are lifted where there are none.
    ///
    /// ```swift
    /// let counted = plan.counted(["Book": 4, "BookCategory": 2, "Page": 0])
    /// counted.steps[0].mapping.entities.map(\.objectCount)
    /// ```
    public func counted(_ counts: [String: Int]) -> MigrationPlan {
        var plan = self
        plan.steps = MigrationPlan.counted(steps, counts)
        plan.walk = walk.map { MigrationPlan.counted($0, counts) }
        return plan
    }

    /// The steps with their object counts filled in, carried from step to step.
    private static func counted(_ steps: [MigrationStep], _ counts: [String: Int]) -> [MigrationStep] {
        var steps = steps
        var carried = counts
        for index in steps.indices {
            steps[index].mapping = steps[index].mapping.counted(carried)
            carried = steps[index].mapping.destinationCounts
        }
        return steps
    }
}

/// One step of a ``MigrationPlan``: two neighbouring versions and the mapping inferred
/// between them.
public struct MigrationStep: Sendable, Hashable {
    /// The version the step starts from.
    public var source: String
    /// The version it ends at.
    public var destination: String
    /// The inferred mapping.
    public var mapping: InferredMapping
    /// Whether the two versions have the same entity version hashes: Core Data takes them
    /// for one model, and a store of one fits the other as it is.
    public var hasIdenticalHashes: Bool
    /// The versions between the two, passed over because their hashes are the source's.
    public var skipped: [String]
    /// The mapping model that fits the step, when one does (see ``MigrationPlan/using(_:)``).
    public var mappingModel: String? = nil
    /// The entity mappings of that mapping model, in the order they run.
    public var entityMappings: [MappingModel.EntityMapping] = []
    /// How that mapping model runs.
    public var mappingRun: MappingRun? = nil

    /// How a mapping model's step runs.
    public enum MappingRun: Sendable, Hashable {
        /// Every entity mapping only copies values (the default policy, no filter, each
        /// value the source object's own attribute or the objects made from a
        /// relationship's destinations): one `INSERT … SELECT` per entity, as an inferred
        /// step, each object keeping its key. The store is the one the object-by-object
        /// run makes.
        case copiesWithSQL
        /// Object by object, in Core Data's three stages (``MappingMigrationManager``),
        /// for this reason (the first mapping that does more than copy).
        case objectByObject(reason: String)
    }
}

extension InferredMapping {
    /// The mapping with object counts filled in: `counts` are the source's objects of
    /// exactly each entity, by name. Refusals that hold only for existing objects are
    /// lifted where the entity has none (and said so in ``notes``).
    public func counted(_ counts: [String: Int]) -> InferredMapping {
        var mapping = self
        for index in mapping.entities.indices {
            mapping.entities[index].objectCount = mapping.entities[index].source.map { counts[$0] ?? 0 } ?? 0
        }
        for index in mapping.removedEntities.indices {
            mapping.removedEntities[index].objectCount = counts[mapping.removedEntities[index].name] ?? 0
        }
        let objects = Dictionary(mapping.entities.map { ($0.name, $0.objectCount ?? 0) }, uniquingKeysWith: { a, _ in a })
        mapping.refusals = refusals.filter { refusal in
            guard refusal.dependsOnObjects, objects[refusal.entity] == 0 else { return true }
            mapping.notes.append("\(refusal.place) \(refusal.reason), but the store has no \(refusal.entity) object, so nothing fails")
            return false
        }
        return mapping
    }

    /// The destination's objects of exactly each entity, once counted.
    public var destinationCounts: [String: Int] {
        Dictionary(entities.compactMap { entity in entity.objectCount.map { (entity.name, $0) } }, uniquingKeysWith: { a, _ in a })
    }
}
