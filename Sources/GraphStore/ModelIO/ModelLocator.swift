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
            let differences = ModelCacheReader.differences(between: model, records: records, schema: schema)
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
            return (model, .inferred(notes: notes + inferred))
        } catch {
            throw .malformedStore(path: path, reason: "no model given, and none could be inferred from the schema: \(error)")
        }
    }
}
