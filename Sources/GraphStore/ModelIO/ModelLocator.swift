/// Finds a model for a store opened without one: the store's own `Z_MODELCACHE` when it
/// has one that decodes and fits the store's tables, otherwise a model inferred from the
/// schema (whose notes then say why the cache was not used).
enum ModelLocator {
    static func model(
        forStoreAt path: String, connection: Connection, schema: DatabaseSchema,
        records: [Int: EntityRecord], metadata: StoreMetadata
    ) throws(StoreError) -> (ManagedObjectModel, ModelOrigin) {
        var notes: [String] = []
        switch ModelCacheReader.read(connection: connection, schema: schema) {
        case .success(let cache):
            // The archive has no version hashes; the metadata has Apple's. Keeping them means
            // a store written later with this model still matches the app's model.
            let model = cache.withVersionHashes(metadata.versionHashes).model
            let differences = ModelCacheReader.differences(between: model, records: records, metadata: metadata, schema: schema)
            if differences.isEmpty { return (model, .modelCache) }
            notes.append("the store's Z_MODELCACHE does not match its tables (\(differences.prefix(3).joined(separator: "; "))); the model was inferred instead")
        case .failure(.missing):
            break
        case .failure(let error):
            notes.append("the store's Z_MODELCACHE could not be used (\(error)); the model was inferred instead")
        }
        let inference = SchemaInference(connection: connection, schema: schema, records: records)
        do {
            let (model, inferred) = try inference.infer()
            return (model, .inferred(notes: notes + inferred + staleNameNotes(records: records, metadata: metadata)))
        } catch {
            throw .malformedStore(path: path, reason: "no model given, and none could be inferred from the schema: \(error)")
        }
    }

    /// Inference names entities as `Z_PRIMARYKEY` does; after a renaming migration those
    /// names can be older than the ones the store's metadata lists. Say so rather than guess
    /// which new name belongs to which row.
    private static func staleNameNotes(records: [Int: EntityRecord], metadata: StoreMetadata) -> [String] {
        let current = Set(metadata.versionHashes.keys)
        guard !current.isEmpty else { return [] }
        let recorded = records.values.filter { $0.number < 16000 }
        let stale = recorded.filter { !current.contains($0.name) }.map(\.name).sorted()
        let unrecorded = current.subtracting(recorded.map(\.name)).sorted()
        guard !stale.isEmpty, !unrecorded.isEmpty else { return [] }
        return [
            "entities \(stale.joined(separator: ", ")) are named as Z_PRIMARYKEY records them, but the store's metadata lists "
                + "\(unrecorded.joined(separator: ", ")) instead (a renaming migration); open with --model to use the current names"
        ]
    }
}
