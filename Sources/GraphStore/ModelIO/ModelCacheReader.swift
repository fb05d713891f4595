/// Reads `Z_MODELCACHE` from an open store and checks the decoded model against the
/// store's own bookkeeping before it is trusted.
enum ModelCacheReader {
    /// The decoded cache, or why there is none.
    static func read(connection: Connection, schema: DatabaseSchema) -> Result<ModelCache, ModelCacheError> {
        guard schema.table("Z_MODELCACHE") != nil else {
            return .failure(.missing("the store has no Z_MODELCACHE table (written by Core Data before framework 637)"))
        }
        let contents: [SQLiteValue]
        do {
            contents = try PersistentStore.modelCacheContents(connection: connection)
        } catch {
            return .failure(.missing("Z_MODELCACHE cannot be read: \(error.message)"))
        }
        let blobs = contents.compactMap { if case .blob(let data) = $0, !data.isEmpty { data } else { nil } }
        guard let blob = blobs.first else {
            return .failure(.missing(contents.isEmpty ? "Z_MODELCACHE has no row" : "Z_MODELCACHE.Z_CONTENT is empty or not a blob"))
        }
        do {
            return .success(try ModelCache(compressed: blob))
        } catch {
            return .failure(error)
        }
    }

    /// Where the model and the store disagree: entities missing on either side, parents
    /// that differ, tables or columns the layout needs that are not there.
    static func differences(between model: ManagedObjectModel, records: [Int: EntityRecord], schema: DatabaseSchema) -> [String] {
        var differences: [String] = []
        var numbers: [String: Int] = [:]
        let stored = records.values.filter { $0.number < 16000 }
        let byName = Dictionary(stored.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        // A renamed entity keeps its old name in Z_PRIMARYKEY; the model knows it as the
        // entity's renaming identifier.
        for entity in model.entities {
            if let record = byName[entity.name] ?? entity.renamingIdentifier.flatMap({ byName[$0] }) {
                numbers[entity.name] = record.number
            } else {
                differences.append("entity \(entity.name) is not in Z_PRIMARYKEY")
            }
        }
        let known = Set(model.entities.map(\.name) + model.entities.compactMap(\.renamingIdentifier))
        for record in stored where !known.contains(record.name) {
            differences.append("Z_PRIMARYKEY entity \(record.name) is not in the model")
        }
        for entity in model.entities {
            guard let number = numbers[entity.name], let record = records[number] else { continue }
            if record.superNumber != (entity.parent.flatMap { numbers[$0] } ?? 0) {
                differences.append("entity \(entity.name) has another parent in Z_PRIMARYKEY")
            }
        }
        guard differences.isEmpty else { return differences }
        var resolver = LayoutResolver(model: model, numbers: numbers, schema: schema)
        _ = resolver.resolve()
        return resolver.differences
    }
}
