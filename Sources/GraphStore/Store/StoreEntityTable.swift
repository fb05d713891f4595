/// A store's ``StoreEntity`` per entity number, made on first use, so that every object ID
/// of one entity shares one (see ``StoreEntity`` for why).
final class StoreEntityTable {
    /// Read for every object ID made; written only by `make`, after the read. No access
    /// overlaps another, so exclusivity is not checked at run time.
    @exclusivity(unchecked) private var byNumber = EntityNumberTable<StoreEntity>()

    /// The shared entity for `mapping` in `store` (the UUID is only read when one is made).
    @inline(__always)
    func entity(for mapping: EntityMapping, in store: PersistentStore) -> StoreEntity {
        if let known = byNumber[mapping.number], known.mapping === mapping { return known }
        return make(mapping, store.uuid)
    }

    private func make(_ mapping: EntityMapping, _ storeUUID: String) -> StoreEntity {
        let entity = StoreEntity(mapping: mapping, storeUUID: storeUUID)
        // A mapping of another store (or an odd number) gets an entity of its own, unshared.
        if byNumber[mapping.number] == nil { byNumber[mapping.number] = entity }
        return entity
    }
}

extension PersistentStore {
    /// The shared ``StoreEntity`` of one of this store's mappings.
    @inline(__always)
    func storeEntity(for mapping: EntityMapping) -> StoreEntity {
        storeEntities.entity(for: mapping, in: self)
    }

    /// A permanent object ID of this store.
    @inline(__always)
    func objectID(_ mapping: EntityMapping, primaryKey: Int64) -> ObjectID {
        ObjectID(entity: storeEntity(for: mapping), primaryKey: primaryKey)
    }

    /// The declared destination of `mapping`'s relationship `index`, as its IDs name it; nil
    /// when the store has no such entity.
    func declaredDestination(of mapping: EntityMapping, relationship index: Int) -> StoreEntity? {
        mapping.relationships[index].destinationNumbers.first.flatMap { self.mapping(number: $0) }.map(storeEntity)
    }

    /// The ID a stored to-one names. Its concrete entity is the row's `Z<n>_` column when
    /// there is one; otherwise, when the declared destination has sub-entities, the
    /// destination row's own `Z_ENT`; otherwise the declared destination.
    func destinationID(_ key: StoredRow.ForeignKey, declared: StoreEntity, hasSubentities: Bool) throws -> ObjectID {
        if let number = key.entityNumber {
            if number == declared.number { return ObjectID(entity: declared, primaryKey: key.primaryKey) }
            if let concrete = mapping(number: number) { return objectID(concrete, primaryKey: key.primaryKey) }
        }
        if hasSubentities, let number = try entityNumber(inTable: declared.mapping.table, primaryKey: key.primaryKey),
            let concrete = mapping(number: number)
        {
            return objectID(concrete, primaryKey: key.primaryKey)
        }
        return ObjectID(entity: declared, primaryKey: key.primaryKey)
    }
}
