/// A store's ``StoreEntity`` per entity number, made on first use, so that every object ID
/// of one entity shares one (see ``StoreEntity`` for why).
final class StoreEntityTable {
    /// Read for every object ID made; written only by `make`, after the read. No access
    /// overlaps another, so exclusivity is not checked at run time.
    @exclusivity(unchecked) private var byNumber: [StoreEntity?] = []

    /// The shared entity for `mapping` in `store` (the UUID is only read when one is made).
    @inline(__always)
    func entity(for mapping: EntityMapping, in store: PersistentStore) -> StoreEntity {
        let number = mapping.number
        if number >= 0, number < byNumber.count, let known = byNumber[number], known.mapping === mapping {
            return known
        }
        return make(mapping, store.uuid)
    }

    private func make(_ mapping: EntityMapping, _ storeUUID: String) -> StoreEntity {
        let entity = StoreEntity(mapping: mapping, storeUUID: storeUUID)
        let number = mapping.number
        // A mapping of another store (or an odd number) gets an entity of its own, unshared.
        guard number >= 0, number < 1 << 16 else { return entity }
        if number >= byNumber.count { byNumber += Array(repeating: nil, count: number + 1 - byNumber.count) }
        if byNumber[number] == nil { byNumber[number] = entity }
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
}
