import OrderedCollections

/// Uniqueness constraints at save: the inserted and updated objects must not share the
/// constrained values with each other, nor with stored objects that keep them. A save checks
/// them inside its transaction, where its merge policy resolves what it finds;
/// ``ManagedObjectContext/validateChanges()`` checks them on demand.
///
/// A value that is missing (nil) in any constrained property never conflicts, as NULLs in
/// an SQL unique index do not.
extension ManagedObjectContext {
    /// One conflict per constraint and values that pending objects share with each other
    /// or with stored rows.
    func constraintConflicts() throws -> [ConstraintConflict] {
        var pendingByConstraint: OrderedDictionary<ValidationPlan.Constraint, [ManagedObject]> = [:]
        // Each list as it is (a concatenated copy retained every inserted object once more),
        // and the plan looked up once per run of one entity.
        var last: (mapping: EntityMapping, constraints: [ValidationPlan.Constraint])?
        for list in [inserted.values, Array(updated.values)] {
            for object in list where !object.isDeleted {
                if last?.mapping !== object.mapping { last = (object.mapping, validationPlan(for: object.mapping).constraints) }
                for constraint in last?.constraints ?? [] { pendingByConstraint[constraint, default: []].append(object) }
            }
        }
        var found: [ConstraintConflict] = []
        for (constraint, objects) in pendingByConstraint {
            found += try conflicts(of: constraint, among: objects)
        }
        return found
    }

    private func conflicts(of constraint: ValidationPlan.Constraint, among objects: [ManagedObject]) throws -> [ConstraintConflict] {
        // Sub-entities may place a key at another index: read each object by its own mapping.
        var byValues: OrderedDictionary<[AttributeValue], [ManagedObject]> = [:]
        for object in objects {
            let indexes = constraint.keys.compactMap { object.mapping.attributeIndex(of: $0) }
            let values = try indexes.compactMap { try object.attributeValue(at: $0) }
            guard values.count == constraint.keys.count else { continue }
            byValues[values, default: []].append(object)
        }
        guard !byValues.isEmpty else { return [] }
        let scope = try store.mapping(for: constraint.declaringEntity)
        let stored = try store.rowsMatching(scope, keys: constraint.keys, tuples: Array(byValues.keys))
        var conflicts: [ConstraintConflict] = []
        for (values, members) in byValues {
            let memberIDs = Set(members.map(\.objectID))
            var others: [ObjectID] = []
            for row in stored[values] ?? [] {
                guard let mapping = store.mapping(number: row.entityNumber) else { continue }
                let id = store.objectID(mapping, primaryKey: row.primaryKey)
                guard !memberIDs.contains(id) else { continue }
                // A deleted object gives its value up; an updated one is judged by its
                // value in memory, which it is already compared with among the members.
                if let object = registered[id], deleted[ObjectIdentifier(object)] != nil || updated[ObjectIdentifier(object)] != nil { continue }
                others.append(id)
            }
            guard members.count + others.count > 1 else { continue }
            conflicts.append(try conflict(constraint.keys, values, members, stored: others))
        }
        return conflicts
    }

    /// The conflict of `members` over `values`, with the first of the stored objects that
    /// hold them (if any) as its database object.
    private func conflict(_ keys: [String], _ values: [AttributeValue], _ members: [ManagedObject], stored: [ObjectID]) throws -> ConstraintConflict {
        var databaseObject: ManagedObject?
        var databaseSnapshot: ObjectSnapshot?
        if let id = stored.first, let key = id.primaryKey, let row = try store.row(of: id.mapping, primaryKey: key) {
            databaseObject = try object(for: id)
            databaseSnapshot = try snapshot(of: row)
        }
        return ConstraintConflict(
            constraint: keys, constraintValues: Dictionary(uniqueKeysWithValues: zip(keys, values)), databaseObject: databaseObject,
            databaseSnapshot: databaseSnapshot, conflictingObjects: members,
            conflictingSnapshots: try members.map { $0.isInserted ? nil : try snapshot(of: $0, committed: true) }, storedIDs: stored)
    }
}
