import Foundation

/// Runs migrations: finds a store's version in a model bundle, plans the migration to the
/// target version (``MigrationPlan``: one inferred step as Core Data takes it, or a walk
/// through versions), and runs it.
///
/// Each step writes a new file beside the store in Core Data's layout for the step's
/// destination version, with every object copied and its `Z_PK` kept (object IDs an app
/// holds stay valid), `Z_OPT`, join tables and `Z_FOK_` ordering carried, new and newly
/// required attributes filled with their defaults, renamed entities and properties carried
/// through their renaming identifiers, `Z_PRIMARYKEY` counters kept, and `Z_METADATA`
/// rewritten for the new version with the store's UUID kept. Rows are streamed by SQLite
/// (`INSERT … SELECT`, one transaction per entity), so memory stays bounded. The values of
/// an attribute whose "Allows External Storage" changes are then moved, in batches, between
/// the table and files of the store's support folder, as a save of the new version would
/// store them (`ExternalStorageMove`).
///
/// A relationship whose storage changes shape (one-to-one, one-to-many and many-to-many
/// into one another, from either side, a to-many side becoming ordered or unordered on the
/// way) has its links carried: its new column or join rows come from the old relationship's
/// links, a new order from the order they are read in (by key), a kept order as it was. A
/// to-many that becomes a to-one where an object has more than one destination would lose
/// links: the plan is then refused (134110) before anything is written.
///
/// The last step's file is opened with the destination model, its objects counted and
/// validated against the rules the chain can change (``MigrationPlan`` works them out: a
/// value copied unchanged under an unchanged rule passes or fails as before, and is not
/// read again); only then does it replace the store (synced to disk, one `rename`), the old
/// file kept as ``backupPath(for:)`` unless ``Options/keepsBackup`` is false. One backup is
/// kept for the whole chain; an earlier backup there is never overwritten: the migration is
/// refused (``MigrationRunError/backupExists(backup:supportFolder:)``) before it starts; a
/// backup that is a second name of the store file itself, left by a migration killed between
/// linking it and the swap, is removed instead. A migration that fails leaves the store as it
/// was.
///
/// A real run holds GraphStore's writer lock on the store exclusively from its plan to its
/// end (``StoreWriterLock``): it waits ``Options/writerPatience`` for stores opened for
/// writing elsewhere (in this process or another) and for other programs' SQLite
/// connections to close, then refuses (``MigrationRunError/storeInUse(path:holder:)``);
/// a store opened for writing meanwhile waits for it. A writer that missed the lock (a
/// program that does not take it) finds the file replaced at its next save and is refused
/// (``StoreError/replaced(path:)``), never writing into the backup.
///
/// ```swift
/// let manager = try MigrationManager(bundle: "App.xcdatamodeld")
/// let plan = try manager.plan(forStoreAt: "App.sqlite")          // read before anything is written
/// let outcome = try manager.migrate(storeAt: "App.sqlite") { progress in
///     print("step \(progress.step + 1)/\(progress.stepCount): \(progress.objectsCopied) objects")
/// }
/// outcome.backup   // "App.sqlite.backup"
/// ```
public struct MigrationManager: Sendable {
    /// The bundle's versions.
    public let versions: ModelVersions
    /// The mapping models a plan looks for a step's in (see ``MigrationPlan/using(_:)``).
    public var mappingModels: [MappingModelCandidate]
    /// The Swift migration policies and function classes the mapping models name.
    public var policies: MigrationPolicies

    /// How a migration runs.
    public struct Options: Sendable, Hashable {
        /// Keep the old store as ``MigrationManager/backupPath(for:)`` (the default).
        public var keepsBackup: Bool
        /// Migrate into a temporary file, validate it, and change nothing.
        public var isDryRun: Bool
        /// How long a real run waits for other writers of the store (GraphStore stores
        /// opened for writing, other programs' SQLite connections) to close it before it
        /// refuses (``MigrationRunError/storeInUse(path:holder:)``); by default SQLite's
        /// busy timeout, 5 seconds.
        public var writerPatience: Duration
        /// How many objects a mapping model's run makes (or links) between two saves of the
        /// new store, after which it lets go of them: what bounds its memory. A policy that
        /// keeps objects from one call to the next must keep their names or fetch them again,
        /// not hold the objects, across a save.
        public var mappingBatchSize: Int
        /// Whether a mapping model that only copies values runs as SQL, as an inferred step
        /// does (the default: the same store, each object keeping its key, about as fast as
        /// inference), rather than object by object as Core Data runs every mapping model.
        /// See ``MigrationStep/MappingRun``.
        public var copiesMappingModelsWithSQL: Bool

        /// Options; by default a real run that keeps a backup.
        public init(
            keepsBackup: Bool = true, isDryRun: Bool = false, writerPatience: Duration = .seconds(5), mappingBatchSize: Int = 2_000,
            copiesMappingModelsWithSQL: Bool = true
        ) {
            self.keepsBackup = keepsBackup
            self.isDryRun = isDryRun
            self.writerPatience = writerPatience
            self.mappingBatchSize = max(1, mappingBatchSize)
            self.copiesMappingModelsWithSQL = copiesMappingModelsWithSQL
        }
    }

    /// Where a running migration is, reported after each entity is copied.
    public struct Progress: Sendable, Hashable {
        /// The step, from 0.
        public var step: Int
        /// How many steps the chain has.
        public var stepCount: Int
        /// The step's destination version.
        public var destination: String
        /// Objects copied so far in this step.
        public var objectsCopied: Int
        /// Objects the step carries.
        public var objectsInStep: Int
    }

    /// What a migration did.
    public struct Outcome: Sendable {
        /// The plan it ran.
        public var plan: MigrationPlan
        /// Whether the store was changed (false for a dry run, or when nothing was to do).
        public var replacedStore: Bool
        /// Where the old store was kept, if it was.
        public var backup: String?
        /// The migrated store's objects of exactly each entity.
        public var objectCounts: [String: Int]
        /// What the destination model's validation found that the store did not already
        /// have (a dry run reports these; a real run refuses to replace the store when there
        /// are any).
        public var validationFailures: [String]
        /// Failures the store already had under its own version (the same object, rule and
        /// property) among the rules the migration checks: the migration carries them and is
        /// not refused for them.
        public var preexistingFailures: [String]
    }

    /// A manager for a bundle's versions, with the mapping models a step may have.
    public init(versions: ModelVersions, mappingModels: [MappingModelCandidate] = [], policies: MigrationPolicies = MigrationPolicies()) {
        self.versions = versions
        self.mappingModels = mappingModels
        self.policies = policies
    }

    /// A manager for the bundle at `bundle` (`App.xcdatamodeld`), with the mapping models of
    /// the project around it (``MappingModelCandidate/around(bundle:versions:)``), as Core
    /// Data finds those compiled into the app.
    public init(bundle: String, policies: MigrationPolicies = MigrationPolicies()) throws(ModelFileError) {
        self.versions = try ModelVersions(path: bundle)
        self.mappingModels = MappingModelCandidate.around(bundle: bundle, versions: versions)
        self.policies = policies
    }

    /// The path the old store is kept at after a migration: `<store>.backup`.
    public static func backupPath(for store: String) -> String { store + ".backup" }

    /// The plan of a store's migration to `target` (the bundle's current version when nil)
    /// along `route` (by default one step, as Core Data infers it). Reads the store only.
    public func plan(forStoreAt path: String, to target: String? = nil, route: MigrationPlan.Route = .inferred) throws(MigrationRunError) -> MigrationPlan {
        try planned(forStoreAt: path, to: target, route: route).plan
    }

    /// The plan, and the manager that runs it: this one, or one whose versions also hold
    /// the store's own model when the plan starts from it.
    private func planned(forStoreAt path: String, to target: String?, route: MigrationPlan.Route) throws(MigrationRunError) -> (plan: MigrationPlan, runner: MigrationManager) {
        do {
            let store = try PersistentStore(path: path)
            let match = try ModelVersionMatch(store: store, versions: versions)
            let plan = try MigrationPlan(
                match: match, versions: versions, to: target, route: route, mappingModels: mappingModels, policies: policies)
            guard plan.sourceVersion == ModelVersions.storeModelName, let model = match.storeModel else { return (plan, self) }
            return (plan, MigrationManager(versions: versions.addingStoreModel(model), mappingModels: mappingModels, policies: policies))
        } catch let error as StoreError {
            throw .store(error)
        } catch let error as MigrationError {
            throw .plan(error)
        } catch {
            throw .fileSystem(path: path, operation: "plan", reason: "\(error)")
        }
    }

    /// Migrates the store at `path` to `target` (the bundle's current version when nil)
    /// along `route` (by default one step, as Core Data infers it).
    ///
    /// - Throws: ``MigrationRunError``; the store is then as it was.
    @discardableResult
    public func migrate(
        storeAt path: String, to target: String? = nil, route: MigrationPlan.Route = .inferred, options: Options = Options(),
        progress: (Progress) -> Void = { _ in }
    ) throws(MigrationRunError) -> Outcome {
        // A real run holds the store's writer lock exclusively from its plan to its end: no
        // GraphStore writer changes the store meanwhile, and none that had it open is left
        // writing the old file once the new one takes its name.
        let lock = try options.isDryRun ? nil : StoreReplacement.lock(path, patience: options.writerPatience)
        defer { withExtendedLifetime(lock) {} }
        let (plan, runner) = try planned(forStoreAt: path, to: target, route: route)
        guard !plan.isRefused else { throw .refused(plan.refusals) }
        try MigrationManager.checkSupported(plan)
        guard !plan.steps.isEmpty else {
            return Outcome(plan: plan, replacedStore: false, backup: nil, objectCounts: [:], validationFailures: [], preexistingFailures: [])
        }
        if !options.isDryRun {
            if options.keepsBackup { try StoreReplacement.checkNoBackup(at: MigrationManager.backupPath(for: path), of: path) }
            try settleLog(of: path, lock: lock)
            StoreReplacement.removeLeftovers(of: path)
        }
        let scratch = options.isDryRun
            ? NSTemporaryDirectory() + "graphstore-migration-\(UUID().uuidString).sqlite"
            : path + ".migrating"
        let move = externalStorageMove(for: path, scratch: scratch, isDryRun: options.isDryRun)
        defer { if options.isDryRun { try? FileManager.default.removeItem(atPath: StoreSupportFolder(storePath: scratch).path) } }
        let outcome: Outcome
        do {
            outcome = try runner.migrate(path, plan: plan, scratch: scratch, move: move, options: options, progress: progress)
        } catch {
            move.files.rolledBack()
            throw error
        }
        if outcome.replacedStore, !(outcome.backup.map { StoreReplacement.sharesSupportFolder(path, $0) } ?? false) {
            // The migrated store is in place: the files only the old store named go (the
            // backup has its copy, unless the folder is the backup's too); a kill before
            // this leaves them as orphans, harmless.
            for name in move.released { unlink(move.folder.externalDataFile(named: name)) }
        }
        move.files.forget()
        return outcome
    }

    /// Runs the plan's steps into `scratch`, checks the result and, unless a dry run, puts
    /// it in place of the store at `path`.
    private func migrate(
        _ path: String, plan: MigrationPlan, scratch: String, move: ExternalStorageMove, options: Options, progress: (Progress) -> Void
    ) throws(MigrationRunError) -> Outcome {
        var current = path
        for (index, step) in plan.steps.enumerated() {
            let next = index == plan.steps.count - 1 ? scratch : "\(scratch)-\(index + 1)"
            StoreReplacement.remove(next)
            // A mapping model's association table, left by a run that was killed.
            try? FileManager.default.removeItem(atPath: next + "-associations")
            do {
                try run(step, from: current, to: next, move: move, checksLinks: index > 0, options: options) { copied in
                    progress(Progress(
                        step: index, stepCount: plan.steps.count, destination: step.destination, objectsCopied: copied,
                        objectsInStep: step.mapping.destinationCounts.values.reduce(0, +)))
                }
            } catch {
                if current != path { StoreReplacement.remove(current) }
                throw error
            }
            if current != path { StoreReplacement.remove(current) }
            current = next
        }
        let checked: Checked
        do {
            checked = try check(current, of: path, plan: plan, folder: move.folder)
        } catch {
            StoreReplacement.remove(current)
            throw error
        }
        if options.isDryRun || !checked.failures.isEmpty {
            StoreReplacement.remove(current)
            if !options.isDryRun { throw .validationFailed(store: path, failures: checked.failures) }
            return Outcome(
                plan: plan, replacedStore: false, backup: nil, objectCounts: checked.counts, validationFailures: checked.failures,
                preexistingFailures: checked.preexisting)
        }
        let backup = options.keepsBackup ? MigrationManager.backupPath(for: path) : nil
        do {
            try StoreReplacement.replace(path, with: current, backup: backup, newFiles: Set(move.written))
        } catch {
            StoreReplacement.remove(current)
            throw error
        }
        return Outcome(
            plan: plan, replacedStore: true, backup: backup, objectCounts: checked.counts, validationFailures: [],
            preexistingFailures: checked.preexisting)
    }

    /// The folder the migrated store's external data files are read from and written to.
    /// A real run uses the store's own (the migrated file takes the store's name, and so its
    /// folder). A dry run writes nothing beside the store: its scratch file's folder, in the
    /// temporary directory, takes the files a step writes and reads the store's own files
    /// in place, as lent (see ``StoreSupportFolder``).
    private func externalStorageMove(for path: String, scratch: String, isDryRun: Bool) -> ExternalStorageMove {
        let own = StoreSupportFolder(storePath: path)
        return ExternalStorageMove(folder: isDryRun ? StoreSupportFolder(storePath: scratch, lendingFrom: own) : own)
    }

    /// Moves whatever the store's write-ahead log holds into the main file, so that the file
    /// alone is the whole store (the copy reads it, and the swap replaces it).
    private func settleLog(of path: String, lock: StoreWriterLock?) throws(MigrationRunError) {
        do {
            let store = try PersistentStore(path: path, model: nil, origin: nil, readOnly: false, supportFolder: nil, migrationLock: lock)
            try store.checkpoint()
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .fileSystem(path: path, operation: "checkpoint", reason: "\(error)")
        }
    }

    /// Runs one step: the store at `source` (of the step's source version) copied into a
    /// new store at `destination`. A step after the first is refused here when a to-one would
    /// lose links (the first step's rows were checked by the plan, on the same file).
    private func run(
        _ step: MigrationStep, from source: String, to destination: String, move: ExternalStorageMove, checksLinks: Bool,
        options: Options, progress: (Int) -> Void
    ) throws(MigrationRunError) {
        guard let from = versions.version(named: step.source), let to = versions.version(named: step.destination) else {
            throw .plan(.unknownVersion(bundle: versions.path, requested: step.source, available: versions.names))
        }
        let store: PersistentStore
        let refusals: [MigrationRefusal]
        do {
            // A later step's source is a scratch file whose files the steps before it wrote
            // into the migration's folder.
            store = try PersistentStore(path: source, model: from.model, origin: .given, readOnly: true, supportFolder: move.folder)
            refusals = checksLinks && step.mappingModel == nil ? try step.rowRefusals(in: store) : []
        } catch {
            throw .store(error)
        }
        guard refusals.isEmpty else { throw .refused(refusals) }
        var plan = MigrationManager.copyPlan(step.mapping)
        if let file = step.mappingModel {
            // The one the plan fitted, as it was read then.
            guard let mappingModel = mappingModels.first(where: { $0.path == file })?.mappingModel else {
                throw .fileSystem(path: file, operation: "read the mapping model", reason: "it is not among the mapping models the plan read")
            }
            guard options.copiesMappingModelsWithSQL, let copy = MappingModelCopy(mappingModel, source: from.model, destination: to.model).plan else {
                try runMappingModel(
                    mappingModel, file: file, from: store, to: destination, model: to.model, move: move, batchSize: options.mappingBatchSize,
                    progress: progress)
                return
            }
            plan = copy
        }
        do {
            try PersistentStore.createMigrated(at: destination, model: to.model, from: store, plan: plan, move: move, progress: progress)
        } catch {
            throw .store(error)
        }
    }

    /// The store-level copy of an inferred mapping: what each destination entity and
    /// property takes from the source.
    static func copyPlan(_ mapping: InferredMapping) -> StoreCopyPlan {
        StoreCopyPlan(entities: mapping.entities.compactMap { entity in
            guard let source = entity.source else { return nil }
            var attributes: [String: StoreCopyPlan.AttributeSource] = [:]
            for attribute in entity.attributes {
                attributes[attribute.name] = StoreCopyPlan.AttributeSource(source: attribute.source, fill: attribute.fill)
            }
            var relationships: [String: String] = [:]
            for relationship in entity.relationships { relationships[relationship.name] = relationship.source }
            return StoreCopyPlan.Entity(name: entity.name, source: source, attributes: attributes, relationships: relationships)
        })
    }

    /// Refuses, before anything is written, a relationship whose change of storage GraphStore
    /// cannot carry, on an entity that has objects: to or from a to-many without an inverse
    /// (a shape GraphStore neither reads nor writes), or a to-many whose links move into
    /// its inverse's column while that inverse does not take them from the old inverse.
    ///
    /// Every other change of shape Core Data infers is carried, in both directions and
    /// seen from either side: one-to-one, one-to-many and many-to-many into one another, with
    /// a to-many side becoming ordered or unordered on the way. A to-one that was a to-many
    /// takes each object's one destination; an object with several refuses the step
    /// (``MigrationStep/linkRefusals(in:)``, checked on the store's rows).
    static func checkSupported(_ plan: MigrationPlan) throws(MigrationRunError) {
        for step in plan.steps where step.mappingModel == nil {
            for entity in step.mapping.entities where (entity.objectCount ?? 1) > 0 {
                for relationship in entity.relationships where relationship.source != nil {
                    guard let reason = uncarried(relationship, step: step) else { continue }
                    throw .unsupported(
                        step: "\(step.source) → \(step.destination)", entity: entity.name, property: relationship.name, reason: reason)
                }
            }
        }
    }

    /// Why a change of a relationship's storage cannot be carried, or nil when it can.
    static func uncarried(_ relationship: InferredMapping.Relationship, step: MigrationStep) -> String? {
        guard let old = relationship.sourceStorage, old != relationship.storage else { return nil }
        if old == .notStored {
            return "changes how it is stored, but it was a to-many without an inverse, which GraphStore does not read"
        }
        if relationship.storage == .notStored {
            return "becomes a to-many without an inverse, which GraphStore cannot store (give it an inverse)"
        }
        guard relationship.storage == .inverseForeignKey else { return nil }
        let inverse = relationship.inverse.flatMap { name in
            step.mapping.entity(named: relationship.destination)?.relationships.first { $0.name == name }
        }
        guard let inverse, let oldInverse = relationship.sourceInverse, inverse.source == oldInverse else {
            return "moves into its inverse's column (\(relationship.destination).\(relationship.inverse ?? "")), which does not take its links from "
                + (relationship.sourceInverse.map { "its old inverse \($0)" } ?? "an old inverse (it had none)")
        }
        return nil
    }

    /// What checking a migrated store found.
    private struct Checked {
        var counts: [String: Int] = [:]
        var failures: [String] = []
        var preexisting: [String] = []
    }

    /// What tells a validation failure from another across versions: the object's key,
    /// the rule's code and the property (entities may be renamed; keys are kept).
    private static func signature(_ error: ValidationError) -> String {
        "\(error.objectID.primaryKey ?? -1) \(error.code) \(error.key ?? "")"
    }

    /// The validation failures the store has under its own version, by ``signature(_:)``.
    private func failures(of path: String, version name: String) throws(MigrationRunError) -> Set<String> {
        guard let version = versions.version(named: name) else { return [] }
        do {
            let store = try PersistentStore(path: path, model: version.model, origin: .given, readOnly: true)
            var found: Set<String> = []
            try StoreValidator(store: store).validate { found.insert(MigrationManager.signature($0)) }
            return found
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .validationFailed(store: path, failures: ["\(error)"])
        }
    }

    /// Opens the migrated store at `path` with the destination model (its layout must
    /// fit), counts its objects against the plan, and validates them; when any fail, the
    /// failures the original store already had are set apart (the original is validated
    /// only then: most stores have none, and it costs a second pass). The new file's
    /// external data files are read from `folder`: the original's (the new file takes the
    /// original's name, and so its folder, when it replaces it), or a dry run's.
    private func check(_ path: String, of original: String, plan: MigrationPlan, folder: StoreSupportFolder) throws(MigrationRunError) -> Checked {
        guard let last = plan.steps.last, let version = versions.version(named: last.destination) else { return Checked() }
        do {
            let store = try PersistentStore(path: path, model: version.model, origin: .given, readOnly: true, supportFolder: folder)
            var counts: [String: Int] = [:]
            for mapping in store.allMappings { counts[mapping.name] = try store.count(of: mapping) }
            // A mapping model's step makes what its mappings make: no count to expect after one.
            let expectsCounts = !plan.steps.contains { $0.mappingModel != nil }
            for (entity, expected) in last.mapping.destinationCounts.sorted(by: { $0.key < $1.key })
            where expectsCounts && counts[entity] != expected {
                throw MigrationRunError.objectsLost(entity: entity, expected: expected, found: counts[entity] ?? 0)
            }
            var found: [ValidationError] = []
            try StoreValidator(store: store).validate(scope: plan.validationScope(versions: versions)) { found.append($0) }
            var checked = Checked(counts: counts)
            let known = found.isEmpty ? [] : try failures(of: original, version: plan.sourceVersion)
            for error in found {
                if known.contains(MigrationManager.signature(error)) {
                    checked.preexisting.append("\(error)")
                } else {
                    checked.failures.append("\(error)")
                }
            }
            return checked
        } catch let error as MigrationRunError {
            throw error
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .validationFailed(store: path, failures: ["\(error)"])
        }
    }
}

extension MigrationManager {
    /// Runs a step's mapping model (``MappingMigrationManager``) from `source` into a new
    /// store of `model` at `destination`, with `source`'s metadata moved to `model`. On
    /// failure nothing is left at `destination`.
    ///
    /// The new store's external data files are written into the migration's folder and
    /// belong to `move` (removed if the migration fails, kept from the backup if it does
    /// not); each large value is written to a new file, and the files `source` named that
    /// the new store does not go once the migrated store is in place.
    fileprivate func runMappingModel(
        _ mappingModel: MappingModel, file: String, from source: PersistentStore, to destination: String, model: ManagedObjectModel,
        move: ExternalStorageMove, batchSize: Int, progress: (Int) -> Void
    ) throws(MigrationRunError) {
        do throws(MigrationRunError) {
            let store: PersistentStore
            do {
                store = try PersistentStore.create(
                    at: destination, model: model, metadata: StoreMetadata(migrating: source.metadata, to: model), supportFolder: move.folder)
            } catch {
                throw .store(error)
            }
            store.writesExternalData(within: move.files)
            let manager = try MappingMigrationManager(
                mappingModel: mappingModel, fileName: (file as NSString).lastPathComponent, source: source, destination: store,
                policies: policies, associationsPath: destination + "-associations", batchSize: batchSize)
            defer { manager.finish() }
            try manager.run(progress: progress)
            do {
                try store.checkpoint()
            } catch {
                throw .fileSystem(path: destination, operation: "checkpoint", reason: "\(error)")
            }
            do {
                move.release(try source.referencedExternalDataFiles().subtracting(try store.referencedExternalDataFiles()))
            } catch {
                throw .store(error)
            }
        } catch {
            StoreReplacement.remove(destination)
            throw error
        }
    }
}
