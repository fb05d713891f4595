/// Finds a model for a store opened without one: the store's own `Z_MODELCACHE` when it
/// has one that decodes, otherwise a model inferred from the schema.
enum ModelLocator {
    static func model(
        forStoreAt path: String, connection: Connection, schema: DatabaseSchema,
        records: [Int: EntityRecord], metadata: StoreMetadata
    ) throws(StoreError) -> (ManagedObjectModel, ModelOrigin) {
        let inference = SchemaInference(connection: connection, schema: schema, records: records)
        do {
            let (model, notes) = try inference.infer()
            return (model, .inferred(notes: notes))
        } catch {
            throw .malformedStore(path: path, reason: "no model given, and none could be inferred from the schema: \(error)")
        }
    }
}
