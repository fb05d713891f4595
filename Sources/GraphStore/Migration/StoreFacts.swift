import Foundation

/// What a store says about its own model, gathered once through `PersistentStore`'s public
/// API: the entity version hashes and identifiers of its metadata, its `Z_MODELCACHE`, the
/// entities of `Z_PRIMARYKEY`, and how many objects each entity has.
struct StoreFacts {
    /// The store's path, as given.
    var path: String
    /// `NSStoreModelVersionHashes` (empty when the metadata has none).
    var versionHashes: [String: Data]
    /// `NSStoreModelVersionIdentifiers`, empty ones left out.
    var versionIdentifiers: Set<String>
    /// The model decoded from `Z_MODELCACHE`, when the store has one that decodes.
    var cachedModel: ManagedObjectModel?
    /// Objects of exactly each entity (sub-entities not included), by entity name.
    var objectCounts: [String: Int]

    init(_ store: PersistentStore) throws(StoreError) {
        path = store.path
        versionHashes = store.metadata.versionHashes
        versionIdentifiers = Set(store.metadata.versionIdentifiers.filter { !$0.isEmpty })
        cachedModel = store.schema.table("Z_MODELCACHE") == nil ? nil : try? store.decodedModelCache().model
        var counts: [String: Int] = [:]
        for mapping in store.allMappings {
            counts[mapping.name] = try store.count(of: mapping)
        }
        objectCounts = counts
    }

    /// How the store's tables and columns disagree with a model, both ways: what opening
    /// the store with that model reports (an entity, table or column the model needs and
    /// the store lacks), and the columns of the model's tables that it leaves unused. The
    /// store is opened read-only, so not one byte of it changes.
    func tableDifferences(with model: ManagedObjectModel) -> [ModelDifference] {
        let opened: PersistentStore
        do {
            opened = try PersistentStore(path: path, model: model, origin: .given, readOnly: true)
        } catch .modelMismatch(_, let lines) {
            return lines.map(StoreFacts.difference(fromMismatch:))
        } catch {
            return [ModelDifference(.column, entity: "", "the store cannot be opened with this version: \(error)")]
        }
        return StoreFacts.unusedColumns(of: opened)
    }

    /// The columns of each entity table that no property of the store's model is stored in.
    private static func unusedColumns(of store: PersistentStore) -> [ModelDifference] {
        var used: [String: Set<String>] = [:]
        var owner: [String: String] = [:]
        for mapping in store.allMappings {
            owner[mapping.table] = owner[mapping.table] ?? mapping.rootName
            used[mapping.table, default: ["Z_PK", "Z_ENT", "Z_OPT"]].formUnion(mapping.rowColumns)
        }
        return used.keys.sorted().flatMap { table in
            (store.schema.table(table)?.columns.map(\.name) ?? []).filter { !(used[table] ?? []).contains($0) }.map {
                ModelDifference(.column, entity: owner[table] ?? table, "column \($0) of table \(table) is in the store, not in this version")
            }
        }
    }

    /// A mismatch line (`entity Book: table ZBOOK is missing`, `Book.title: no column …`)
    /// as a difference about its entity.
    private static func difference(fromMismatch line: String) -> ModelDifference {
        var subject = line.prefix { $0 != ":" }
        if subject.hasPrefix("entity ") { subject = subject.dropFirst("entity ".count) }
        let entity = subject.prefix { $0 != "." && $0 != " " }
        let detail = line[subject.endIndex...].dropFirst().drop { $0 == " " }
        return ModelDifference(.column, entity: String(entity), detail.isEmpty ? line : String(detail))
    }
}
