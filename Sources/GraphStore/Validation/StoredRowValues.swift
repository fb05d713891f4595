/// A stored row as the in-memory predicate evaluator sees it, so that `validate … where
/// PREDICATE` can filter rows without making objects: attributes are the row's values, a
/// to-one is the destination's row (read when a key path goes through it), a to-many is
/// the destinations' rows.
///
/// `KeyValueSource` requires `Sendable`; the store is not. The adapter lives for one
/// evaluation on the caller's thread and the evaluator keeps nothing it reads, which is why
/// it may claim `@unchecked Sendable`. A destination that cannot be read reads as nil.
struct StoredRowValues: KeyValueSource, @unchecked Sendable {
    let row: StoredRow
    let store: PersistentStore

    var objectIdentity: AnyHashable? {
        AnyHashable(store.objectID(row.mapping, primaryKey: row.primaryKey))
    }

    func value(forKey key: String) -> PredicateValue {
        let mapping = row.mapping
        if let index = mapping.attributeIndex(of: key) {
            // A value kept in a missing external file, or one that cannot be read, reads as nil.
            return PredicateValue((try? row.attributeValue(at: index)) ?? nil)
        }
        guard let index = mapping.relationshipIndex(of: key) else { return .null }
        let relationship = mapping.relationships[index]
        if !relationship.relationship.isToMany {
            guard let key = row.toOne[index] else { return .null }
            guard let destination = self.row(key.primaryKey, entityNumber: key.entityNumber, of: relationship) else {
                // A dangling key is not nil: the reference is there, its object is missing.
                return .object(MissingRow(identity: "\(relationship.relationship.destination)/p\(key.primaryKey)"))
            }
            return .object(StoredRowValues(row: destination, store: store))
        }
        let members = ((try? store.destinations(of: relationship, from: row.primaryKey)) ?? []).compactMap {
            self.row($0.primaryKey, entityNumber: $0.entityNumber, of: relationship).map { PredicateValue.object(StoredRowValues(row: $0, store: store)) }
        }
        return relationship.relationship.isOrdered ? .array(members) : .set(members)
    }

    private func row(_ key: Int64, entityNumber: Int?, of relationship: RelationshipMapping) -> StoredRow? {
        guard let declared = try? store.mapping(for: relationship.relationship.destination) else { return nil }
        let number = entityNumber ?? (try? store.entityNumber(inTable: declared.table, primaryKey: key)) ?? nil
        guard let number, let concrete = store.mapping(number: number) else { return nil }
        return try? store.row(of: concrete, primaryKey: key)
    }
}

/// The object a dangling reference names: it has an identity but no values.
struct MissingRow: KeyValueSource {
    let identity: String
    var objectIdentity: AnyHashable? { AnyHashable(identity) }
    func value(forKey key: String) -> PredicateValue { .null }
}
