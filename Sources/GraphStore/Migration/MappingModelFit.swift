/// Which versions of a model bundle a mapping model was made between, found by comparing
/// the file's model snapshots with each version on every input of the entity version
/// hashes (a mapping model holds no hashes of its own; Xcode's compiler writes them from
/// the snapshots).
///
/// A snapshot that equals no version names the nearest one and what differs, property by
/// property: the model was edited after the mapping was made, and Core Data would not use
/// the mapping for a store of either version.
///
/// ```swift
/// let fit = MappingModelFit(mapping: file.mappingModel, versions: versions)
/// fit.source?.version          // "Model 2"
/// fit.destination?.version     // "Model 3"
/// ```
public struct MappingModelFit: Sendable {
    /// How one side of a mapping model fits the bundle.
    public struct Side: Sendable {
        /// The version whose hashes the snapshot has, or the nearest when none has them.
        public var version: String
        /// Whether the snapshot equals that version (no differences).
        public var fits: Bool { differences.isEmpty }
        /// What differs between the snapshot and the nearest version.
        public var differences: [ModelDifference]
    }

    /// The source side; nil when the file has no source snapshot or the bundle no versions.
    public var source: Side?
    /// The destination side.
    public var destination: Side?

    /// Whether both sides equal versions of the bundle.
    public var fits: Bool { source?.fits == true && destination?.fits == true }

    /// Compares a mapping model's snapshots with a bundle's versions.
    public init(mapping: MappingModel, versions: ModelVersions) {
        source = mapping.sourceModel.flatMap { MappingModelFit.side($0, versions, name: "the mapping model's source snapshot") }
        destination = mapping.destinationModel.flatMap { MappingModelFit.side($0, versions, name: "the mapping model's destination snapshot") }
    }

    /// Whether the mapping model fits a step from `source` to `destination`.
    public func fits(from source: String, to destination: String) -> Bool {
        fits && self.source?.version == source && self.destination?.version == destination
    }

    private static func side(_ snapshot: ManagedObjectModel, _ versions: ModelVersions, name: String) -> Side? {
        let hashes = snapshot.entityVersionHashes
        if let equal = versions.versions.first(where: { $0.versionHashes == hashes }) {
            return Side(version: equal.name, differences: [])
        }
        // The nearest: most entity hashes in common, then fewest differences.
        let ranked = versions.versions.map { version in
            (version, agreeing: hashes.filter { version.versionHashes[$0.key] == $0.value }.count,
             differences: ModelDifference.between(store: snapshot, version: version.model, storeName: name))
        }
        guard let nearest = ranked.max(by: { ($0.agreeing, -$0.differences.count) < ($1.agreeing, -$1.differences.count) }) else { return nil }
        return Side(version: nearest.0.name, differences: nearest.differences.isEmpty
            ? [ModelDifference(.entity, entity: "*", "the version hashes differ")] : nearest.differences)
    }
}
