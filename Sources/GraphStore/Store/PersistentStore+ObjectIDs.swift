/// Object IDs of this store's rows, and of the rows their to-one keys name.
extension PersistentStore {
    /// A permanent object ID of this store.
    @inline(__always)
    func objectID(_ mapping: EntityMapping, primaryKey: Int64) -> ObjectID {
        ObjectID(mapping: mapping, primaryKey: primaryKey)
    }

    /// The declared destination of `mapping`'s relationship `index`; nil when the store has
    /// no such entity.
    func declaredDestination(of mapping: EntityMapping, relationship index: Int) -> EntityMapping? {
        mapping.relationships[index].destinationNumbers.first.flatMap { self.mapping(number: $0) }
    }

    /// The ID a stored to-one names. Its concrete entity is the row's `Z<n>_` column when
    /// there is one; otherwise, when the declared destination has sub-entities, the
    /// destination row's own `Z_ENT`; otherwise the declared destination.
    func destinationID(_ key: StoredRow.ForeignKey, declared: EntityMapping, hasSubentities: Bool) throws -> ObjectID {
        if let number = key.entityNumber {
            if number == declared.number { return ObjectID(mapping: declared, primaryKey: key.primaryKey) }
            if let concrete = mapping(number: number) { return ObjectID(mapping: concrete, primaryKey: key.primaryKey) }
        }
        if hasSubentities, let number = try entityNumber(inTable: declared.table, primaryKey: key.primaryKey),
            let concrete = mapping(number: number)
        {
            return ObjectID(mapping: concrete, primaryKey: key.primaryKey)
        }
        return ObjectID(mapping: declared, primaryKey: key.primaryKey)
    }
}
