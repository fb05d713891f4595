/// Reads `Z_MODELCACHE` from an open store and checks the decoded model against the
/// store's own bookkeeping before it is trusted.
enum ModelCacheReader {
    /// The decoded cache; the error says why there is none. (Typed throws, not a `Result`:
    /// the first `Result` of an error type makes the runtime look up its `Error` conformance
    /// by scanning the whole binary, on every open.)
    static func read(_ sampler: SchemaSampler, schema: DatabaseSchema) throws(ModelCacheError) -> ModelCache {
        guard schema.table("Z_MODELCACHE") != nil else {
            throw .missing("the store has no Z_MODELCACHE table (written by Core Data before framework 637)")
        }
        let contents: [SQLiteValue]
        do {
            contents = try sampler.modelCacheContents()
        } catch {
            throw .missing("Z_MODELCACHE cannot be read: \(error.message)")
        }
        let blobs = contents.compactMap { if case .blob(let data) = $0, !data.isEmpty { data } else { nil } }
        guard let blob = blobs.first else {
            throw .missing(contents.isEmpty ? "Z_MODELCACHE has no row" : "Z_MODELCACHE.Z_CONTENT is empty or not a blob")
        }
        return try ModelCache(compressed: blob)
    }

    /// Where the model and the store disagree: entities missing on either side, parents
    /// that differ, tables or columns the layout needs that are not there.
    static func differences(between model: ManagedObjectModel, records: [Int: PrimaryKeyEntry], metadata: StoreMetadata, schema: DatabaseSchema) -> [String] {
        let numbering = PrimaryKeyEntryMatcher(model: model, records: records, metadata: metadata, schema: schema)
        guard numbering.differences.isEmpty else { return numbering.differences }
        // Only the differences are wanted: the mappings made are dropped.
        var resolver = LayoutResolver(model: model, numbers: numbering.numbers, schema: schema, storeNames: numbering.storeNames, storeUUID: metadata.uuid)
        _ = resolver.resolve()
        return resolver.differences
    }
}
