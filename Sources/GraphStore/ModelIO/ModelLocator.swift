/// Finds a model for a store opened without one: the store's own `Z_MODELCACHE` when it
/// has one that decodes and fits the store's tables, otherwise a model inferred from the
/// schema (whose notes then say why the cache was not used).
enum ModelLocator {
    /// The model found, where it came from, and why the cache was passed over, if it was.
    struct Found {
        var model: ManagedObjectModel
        var origin: ModelOrigin
        var cacheProblem: ModelCacheProblem?
    }

    static func model(
        forStoreAt path: String, sampler: SchemaSampler, schema: DatabaseSchema,
        records: [Int: PrimaryKeyEntry], metadata: StoreMetadata
    ) throws(StoreError) -> Found {
        var problem: ModelCacheProblem?
        do throws(ModelCacheError) {
            // The archive has no version hashes; the metadata has Apple's. Keeping them means
            // a store written later with this model still matches the app's model.
            let model = try ModelCacheReader.read(sampler, schema: schema).withVersionHashes(metadata.versionHashes).model
            let differences = ModelCacheReader.differences(between: model, records: records, metadata: metadata, schema: schema)
            if differences.isEmpty { return Found(model: model, origin: .modelCache) }
            problem = .mismatched(differences: Array(differences.prefix(3)))
        } catch .missing where schema.table("Z_MODELCACHE") == nil {
            // No cache at all: inferring is the usual way, not a problem to report.
        } catch {
            problem = .undecodable(error)
        }
        let inference = SchemaInference(sampler: sampler, schema: schema, records: records)
        do {
            let (model, inferred) = try inference.infer()
            let notes = problem.map { [$0.description] } ?? []
            return Found(model: model, origin: .inferred(notes: notes + inferred + staleNameNotes(records: records, metadata: metadata)), cacheProblem: problem)
        } catch {
            throw .malformedStore(path: path, reason: "no model given, and none could be inferred from the schema: \(error)")
        }
    }

    /// Inference names entities as `Z_PRIMARYKEY` does; after a renaming migration those
    /// names can be older than the ones the store's metadata lists. Say so rather than guess
    /// which new name belongs to which row.
    private static func staleNameNotes(records: [Int: PrimaryKeyEntry], metadata: StoreMetadata) -> [String] {
        let current = Set(metadata.versionHashes.keys)
        guard !current.isEmpty else { return [] }
        let recorded = records.values.filter { $0.number < 16000 }
        let stale = recorded.filter { !current.contains($0.name) }.map(\.name).sorted()
        let unrecorded = current.subtracting(recorded.map(\.name)).sorted()
        guard !stale.isEmpty, !unrecorded.isEmpty else { return [] }
        return [
            "entities \(stale.joined(separator: ", ")) are named as Z_PRIMARYKEY records them, but the store's metadata lists "
                + "\(unrecorded.joined(separator: ", ")) instead \(ModelOrigin.renamingMigrationNote)"
        ]
    }
}
