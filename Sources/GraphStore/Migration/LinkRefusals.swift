/// Nothing lost when a to-many becomes a to-one: the rule, checked on a store's rows.
///
/// A to-one keeps one destination. When a relationship that was stored as a to-many (the
/// inverse's column, or a join table) becomes a to-one — a to-many become to-one, or a pair
/// become one-to-one where one side's object was claimed by several — an object with more
/// than one destination could not keep every link. The step is then refused with Core
/// Data's 134110 before anything is written, naming the step, the entity, the relationship,
/// how many objects have several destinations and one of them; where every object has at
/// most one, its one destination moves into the new column.
extension MigrationStep {
    /// The relationships of this step whose objects in `store` (at the step's source
    /// version) have more than one destination for a to-one: one refusal per relationship
    /// and entity. One grouped query per such relationship; none for the others.
    func linkRefusals(in store: PersistentStore) throws(StoreError) -> [MigrationRefusal] {
        var refusals: [MigrationRefusal] = []
        for entity in mapping.entities where (entity.objectCount ?? 1) > 0 {
            guard let sourceEntity = entity.source else { continue }
            for relationship in entity.relationships where relationship.becomesToOneFromToMany {
                guard let sourceName = relationship.source, let owner = store.mappings[sourceEntity] else { continue }
                let found = try store.objectsWithSeveralDestinations(of: sourceName, in: owner)
                guard found.count > 0, let example = found.example else { continue }
                let objects = found.count == 1 ? "1 \(sourceEntity) object has" : "\(found.count) \(sourceEntity) objects have"
                refusals.append(MigrationRefusal(
                    .migrationFails, entity: entity.name, property: relationship.name,
                    "becomes a to-one in step \(source) → \(destination), but \(objects) more than one destination (\(example) is one) and a to-one keeps only one: links would be lost"))
            }
        }
        return refusals
    }

    /// Whether a step's to-one relationship that was stored as a to-many needs the store's rows checked.
    var needsLinkCheck: Bool {
        mapping.entities.contains { entity in entity.relationships.contains(where: \.becomesToOneFromToMany) }
    }
}

extension InferredMapping.Relationship {
    /// Whether it is a to-one whose source was stored as a to-many (the inverse's column, or a
    /// join table): each object's destinations must be one at most.
    var becomesToOneFromToMany: Bool {
        source != nil && storage == .foreignKey && (sourceStorage == .inverseForeignKey || sourceStorage == .joinTable)
    }
}
