extension InferredMapping {
    /// Infers the mapping between two versions of a model as Core Data's lightweight
    /// migration does (see ``InferredMapping`` and docs/migrations.md for the rules and
    /// what is uncertain in them).
    ///
    /// ```swift
    /// let mapping = InferredMapping(from: versions.version(named: "App")!, to: versions.version(named: "App 2")!)
    /// ```
    public init(from source: ModelVersions.Version, to destination: ModelVersions.Version) {
        self.init(
            from: source.model, to: destination.model, sourceVersion: source.name, destinationVersion: destination.name,
            identicalHashes: source.versionHashes == destination.versionHashes)
    }

    /// Infers the mapping between two models.
    ///
    /// Models with one set of entity version hashes are one model to Core Data, which does
    /// not migrate between them: their elements are paired by name, whatever their renaming
    /// identifiers say.
    ///
    /// ```swift
    /// let mapping = InferredMapping(from: v1, to: v2)
    /// for refusal in mapping.refusals { print(refusal) }
    /// ```
    public init(from source: ManagedObjectModel, to destination: ManagedObjectModel, sourceVersion: String = "source", destinationVersion: String = "destination") {
        self.init(
            from: source, to: destination, sourceVersion: sourceVersion, destinationVersion: destinationVersion,
            identicalHashes: source.entityVersionHashes == destination.entityVersionHashes)
    }

    private init(from source: ManagedObjectModel, to destination: ManagedObjectModel, sourceVersion: String, destinationVersion: String, identicalHashes: Bool) {
        var inference = MappingInference(source: source, destination: destination, byNameOnly: identicalHashes)
        self = inference.mapping(sourceVersion: sourceVersion, destinationVersion: destinationVersion)
    }
}

/// The rules of Core Data's inferred mapping, applied to two models.
///
/// Core Data infers: entities and properties added and removed; renames through renaming
/// identifiers; optional to required with a default value, and required to optional;
/// to-one to to-many and back; unordered to ordered and back; relationships added and
/// removed; entities moved within or out of a hierarchy, new parents and children,
/// properties moved up and down. It cannot: change an attribute's type (GraphStore's
/// conservative reading, see docs/migrations.md), bring entities of separate hierarchies
/// under one root, point a relationship at an unrelated entity, turn an attribute into a
/// relationship. Those need a mapping model (134140). A required value with nothing to
/// fill it makes the migration of existing objects fail (134110).
struct MappingInference {
    typealias Match = InferredMapping.Match

    let source: ManagedObjectModel
    let destination: ManagedObjectModel
    /// Whether elements are paired by name alone, renaming identifiers ignored.
    let byNameOnly: Bool
    /// Destination entity name to its source entity.
    private let entityPairs: [String: (source: String, match: Match)]
    /// Source entity name to its destination entity.
    private let counterparts: [String: String]
    private let entityConflicts: [String: [String]]
    private let unpairedTwins: [String: (source: String, destination: String)]
    private let sourceNumbers: [String: Int]
    private let destinationNumbers: [String: Int]
    private var refusals: [MigrationRefusal] = []
    /// The two versions' names, for the sentences of refusals.
    private(set) var versionNames = (source: "source", destination: "destination")

    init(source: ManagedObjectModel, destination: ManagedObjectModel, byNameOnly: Bool) {
        self.source = source
        self.destination = destination
        self.byNameOnly = byNameOnly
        let matcher = RenamingMatcher(
            sources: source.entities.map { .init(name: $0.name, renamingIdentifier: byNameOnly ? nil : $0.renamingIdentifier) },
            destinations: destination.entities.map { .init(name: $0.name, renamingIdentifier: byNameOnly ? nil : $0.renamingIdentifier) })
        entityPairs = matcher.pairs
        entityConflicts = matcher.conflicts
        unpairedTwins = matcher.sameNameUnpaired
        counterparts = Dictionary(matcher.pairs.map { ($0.value.source, $0.key) }, uniquingKeysWith: { a, _ in a })
        sourceNumbers = MappingInference.numbers(of: source)
        destinationNumbers = MappingInference.numbers(of: destination)
    }

    private static func numbers(of model: ManagedObjectModel) -> [String: Int] {
        Dictionary(model.entitiesInNumberingOrder.enumerated().map { ($0.element.name, $0.offset + 1) }, uniquingKeysWith: { a, _ in a })
    }

    mutating func mapping(sourceVersion: String, destinationVersion: String) -> InferredMapping {
        versionNames = (sourceVersion, destinationVersion)
        for (name, sources) in entityConflicts.sorted(by: { $0.key < $1.key }) {
            refusals.append(MigrationRefusal(
                .mappingModelNeeded, entity: name,
                "its renaming identifier pairs it with \(sources.joined(separator: " and ")), which another entity claims too: the mapping is ambiguous"))
        }
        let entities = destination.entitiesInNumberingOrder.map { entity($0) }
        checkHierarchies()
        let removed = source.entitiesInNumberingOrder.filter { counterparts[$0.name] == nil }.map {
            InferredMapping.RemovedEntity(name: $0.name, objectCount: nil)
        }
        var notes = unpairedTwins.sorted(by: { $0.key < $1.key }).map { "entity \($0.key) " + unpairedTwin($0.value, kind: "entity") }
        if !source.entities.isEmpty, removed.count == source.entities.count {
            notes.append("no entity of \(sourceVersion) has a counterpart in \(destinationVersion): every object would be dropped; are these versions of one model?")
        }
        return InferredMapping(
            sourceVersion: sourceVersion, destinationVersion: destinationVersion, entities: entities, removedEntities: removed,
            refusals: refusals, notes: notes)
    }

    // MARK: - Entities

    private mutating func entity(_ entity: EntityDescription) -> InferredMapping.Entity {
        let pair = entityPairs[entity.name]
        let from = pair.flatMap { source.entity(named: $0.source) }
        // A parent removed in the destination has no counterpart: the parent changes.
        let mappedParent = from?.parent.flatMap { counterparts[$0] ?? "\($0) (removed)" }
        var result = InferredMapping.Entity(
            name: entity.name, number: destinationNumbers[entity.name] ?? 0, table: MappingInference.table(of: entity.name, in: destination),
            parent: entity.parent, isAbstract: entity.isAbstract, source: from?.name, match: pair?.match,
            sourceNumber: from.flatMap { sourceNumbers[$0.name] }, sourceTable: from.map { MappingInference.table(of: $0.name, in: source) },
            sourceParent: from?.parent, attributes: [], relationships: [], removedProperties: [], notes: [],
            objectCount: from == nil ? 0 : nil, changesParent: from != nil && mappedParent != entity.parent)
        if let from {
            if !from.isAbstract, entity.isAbstract {
                refusals.append(MigrationRefusal(
                    .migrationFails, entity: entity.name,
                    "becomes abstract: its existing objects cannot stay instances of an abstract entity", dependsOnObjects: true))
            }
            if result.changesParent {
                result.notes.append("parent changes from \(from.parent ?? "none") to \(entity.parent ?? "none")")
            }
        }
        var properties = PropertyInference(inference: self, entity: entity, from: from)
        properties.infer(into: &result)
        refusals += properties.refusals
        return result
    }

    /// Core Data cannot merge hierarchies: entities that do not share a root in the source
    /// cannot share one in the destination (a new root above one old hierarchy is fine).
    private mutating func checkHierarchies() {
        var sourceRoots: [String: Set<String>] = [:]
        var members: [String: [String]] = [:]
        for entity in destination.entitiesInNumberingOrder {
            guard let pair = entityPairs[entity.name], let root = destination.root(of: entity.name)?.name,
                let sourceRoot = source.root(of: pair.source)?.name
            else { continue }
            sourceRoots[root, default: []].insert(sourceRoot)
            members[root, default: []].append("\(entity.name) (from \(pair.source), under \(sourceRoot))")
        }
        for (root, roots) in sourceRoots.sorted(by: { $0.key < $1.key }) where roots.count > 1 {
            refusals.append(MigrationRefusal(
                .mappingModelNeeded, entity: root,
                "brings entities of separate source hierarchies under one root (\(members[root, default: []].joined(separator: ", "))): Core Data cannot merge hierarchies"))
        }
    }

    /// The warning for an element that keeps its name while its identifier changes: Core
    /// Data's rule drops it and adds a new one, which the model's author rarely means.
    func unpairedTwin(_ identifiers: (source: String, destination: String), kind: String) -> String {
        "keeps its name but its renaming identifier changes (\(identifiers.source) in \(versionNames.source), \(identifiers.destination) in \(versionNames.destination)): "
            + "Core Data pairs \(kind == "entity" ? "entities" : "properties") by identifier, so the old \(kind) is dropped and a new one added; set the identifiers alike to keep its values"
    }

    // MARK: - Helpers for properties

    /// The destination counterpart of a source entity.
    func counterpart(ofSource name: String) -> String? { counterparts[name] }

    /// The entity that declares a property, in a model, seen from `entity`.
    static func declaringEntity(of property: String, in model: ManagedObjectModel, from entity: String) -> String {
        model.ancestry(of: entity).last { $0.attribute(named: property) != nil || $0.relationship(named: property) != nil }?.name ?? entity
    }

    static func table(of entity: String, in model: ManagedObjectModel) -> String {
        LayoutResolver.tableName(root: model.root(of: entity)?.name ?? entity)
    }
}
