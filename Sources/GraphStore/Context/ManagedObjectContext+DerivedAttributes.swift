import Foundation

/// Derived attributes in the save: recomputed by the store inside the save's transaction,
/// then shown by the objects once it commits, as Core Data shows them (its documentation:
/// derived values are recomputed when a context saves; an object does not reflect unsaved
/// changes until then).
extension ManagedObjectContext {
    /// Recomputes the derived attributes the pending changes may affect; called inside the
    /// save's transaction after every row is written. Returns the values to show afterwards.
    func recomputeDerivedAttributes() throws -> [DerivedValueChange] {
        guard store.model.hasDerivedAttributes else { return [] }
        var tables = Set<String>()
        var saved: [(mapping: EntityMapping, key: Int64)] = []
        func note(_ object: ManagedObject, saved isSaved: Bool) {
            tables.insert(object.mapping.table)
            for relationship in object.mapping.relationships {
                if case .joinTable(let join) = relationship.storage { tables.insert(join.table) }
            }
            if isSaved, let key = object.objectID.primaryKey ?? object.pendingKey { saved.append((object.mapping, key)) }
        }
        for object in inserted.values { note(object, saved: true) }
        for object in updated.values { note(object, saved: true) }
        for object in deleted.values { note(object, saved: false) }
        return try store.recomputeDerivedAttributes(written: tables, saved: saved, at: Date())
    }

    /// After the commit: each registered object whose row got a new derived value holds it
    /// (a plain fault reads it when it fires). Not a change: nothing is left to save.
    func showDerivedValues(_ changes: [DerivedValueChange]) {
        for change in changes {
            guard let object = registered.object(number: change.mapping.number, key: change.primaryKey), object.hasData || !object.isFault,
                change.attributeIndex < object.mapping.attributes.count
            else { continue }
            object.values[change.attributeIndex] = .value(change.value)
        }
    }
}

extension ManagedObjectModel {
    /// Whether any entity has a derived attribute (a save of a model without one skips the
    /// recomputation entirely).
    var hasDerivedAttributes: Bool {
        entities.contains { $0.attributes.contains { $0.derivationExpression != nil } }
    }
}
