import Foundation

/// Matches a model's entities to the rows of a store's `Z_PRIMARYKEY` (its
/// ``PrimaryKeyEntry``s), which gives each entity its number.
///
/// An entity is found by its name, then by its renaming identifier. A renaming migration
/// can leave `Z_PRIMARYKEY` (and the root's table) under the old name while the store's
/// metadata already lists the new one in `NSStoreModelVersionHashes`; such an entity is
/// paired with the one row whose name the metadata no longer knows, in the same place in
/// the inheritance tree (and, when several rows qualify, whose table has the entity's
/// columns). Every pairing made that way is reported, so that the user sees it.
///
/// ```swift
/// let matcher = PrimaryKeyEntryMatcher(model: model, records: entries, metadata: metadata, schema: schema)
/// matcher.numbers["Book"]   // 1
/// matcher.differences       // [] when every entity has its row and parent
/// ```
struct PrimaryKeyEntryMatcher {
    /// Entity name to `Z_ENT`.
    private(set) var numbers: [String: Int] = [:]
    /// Entity name to the name `Z_PRIMARYKEY` records for it, where they differ.
    private(set) var storeNames: [String: String] = [:]
    /// One line per entity found under a stale name.
    private(set) var notes: [String] = []
    /// Where the model and `Z_PRIMARYKEY` disagree: entities on one side only, or a parent
    /// that differs.
    private(set) var differences: [String] = []

    init(model: ManagedObjectModel, records: [Int: PrimaryKeyEntry], metadata: StoreMetadata, schema: DatabaseSchema) {
        let byName = Dictionary(records.values.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for entity in model.entities {
            if let record = byName[entity.name] ?? entity.renamingIdentifier.flatMap({ byName[$0] }) {
                assign(entity, to: record)
            }
        }
        let currentNames = metadata.versionHashes
        let known = Set(model.entities.map(\.name) + model.entities.compactMap(\.renamingIdentifier)).union(currentNames.keys)
        var stale = records.values.filter { $0.number < 16000 && !known.contains($0.name) }
        // Parents first, so that a child's place in the tree can be compared.
        for entity in model.entitiesInNumberingOrder where numbers[entity.name] == nil {
            guard let hash = currentNames[entity.name], model.knownVersionHashes[entity.name].map({ $0 == hash }) ?? true else { continue }
            let parentNumber = entity.parent.flatMap { numbers[$0] } ?? 0
            var candidates = stale.filter { $0.superNumber == parentNumber }
            if candidates.count > 1 {
                candidates = candidates.filter { Self.table(of: $0, in: records, schema: schema, hasColumnsOf: entity) }
            }
            guard candidates.count == 1, let record = candidates.first else { continue }
            stale.removeAll { $0.number == record.number }
            assign(entity, to: record)
            notes.append(
                "entity \(entity.name) is recorded in Z_PRIMARYKEY under its old name \(record.name) (Z_ENT \(record.number)); "
                    + "the store's metadata lists \(entity.name)")
        }
        findDifferences(model: model, records: records)
    }

    private mutating func findDifferences(model: ManagedObjectModel, records: [Int: PrimaryKeyEntry]) {
        for entity in model.entities where numbers[entity.name] == nil {
            differences.append("entity \(entity.name) is in the model but not in the store's Z_PRIMARYKEY")
        }
        let matched = Set(numbers.values)
        for record in records.values.sorted(by: { $0.number < $1.number }) where record.number < 16000 && !matched.contains(record.number) {
            differences.append("entity \(record.name) (Z_ENT \(record.number)) is in the store but not in the model")
        }
        for entity in model.entities {
            guard let number = numbers[entity.name], let record = records[number] else { continue }
            let expected = entity.parent.flatMap { numbers[$0] } ?? 0
            if record.superNumber != expected {
                differences.append("entity \(entity.name): the store records parent Z_ENT \(record.superNumber), the model says \(entity.parent ?? "none")")
            }
        }
    }

    private mutating func assign(_ entity: EntityDescription, to record: PrimaryKeyEntry) {
        numbers[entity.name] = record.number
        if record.name != entity.name { storeNames[entity.name] = record.name }
    }

    /// Whether the table of a record's hierarchy has a column for each stored attribute the
    /// entity declares itself (the names Core Data derives from property names).
    private static func table(of record: PrimaryKeyEntry, in records: [Int: PrimaryKeyEntry], schema: DatabaseSchema, hasColumnsOf entity: EntityDescription) -> Bool {
        var root = record
        var seen: Set<Int> = [root.number]
        while root.superNumber != 0, let parent = records[root.superNumber], seen.insert(parent.number).inserted { root = parent }
        guard let table = schema.table(LayoutResolver.tableName(root: root.name)) else { return false }
        return entity.attributes.filter(\.isStored).allSatisfy { table.has("Z" + $0.name.uppercased()) }
    }
}
