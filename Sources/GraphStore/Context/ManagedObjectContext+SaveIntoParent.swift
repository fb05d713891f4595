/// A child context's save (see ``ManagedObjectContext/init(parent:)``): the same hooks and
/// validation as a save to the store, then every change pushed into the parent as the
/// parent's own unsaved change (recorded, undoable, announced in its objects-did-change),
/// nothing written to disk. All or nothing: a failure leaves both contexts as they were.
extension ManagedObjectContext {
    func saveIntoParent(_ parent: ManagedObjectContext) throws {
        if let failure = accessErrorLog.failure { throw failure }
        processPendingChanges()
        postWillSave()
        let restorePoint = SaveRestorePoint(self)
        do {
            try watchingChanges(restorePoint) {
                for object in inserted.values { object.willSave() }
                for object in updated.values { object.willSave() }
                for object in deleted.values { object.willSave() }
                // Uniqueness too: a save into the parent hands no conflict to a merge policy.
                if validatesOnSave { try validateChanges() }
            }
            try push(into: parent)
        } catch {
            restorePoint.restore(self)
            throw error
        }
        let saved = (inserted: Array(inserted.values), updated: Array(updated.values), deleted: Array(deleted.values))
        settlePushedChanges()
        pendingEvent = PendingEvent()
        _ = postDidSave(inserted: saved.inserted, updated: saved.updated, deleted: saved.deleted)
        for object in saved.inserted { object.didSave() }
        for object in saved.updated { object.didSave() }
        for object in saved.deleted { object.didSave() }
        processPendingChanges()
    }

    /// Makes every change of this context a change of `parent`, or none of them.
    private func push(into parent: ManagedObjectContext) throws {
        let restorePoint = SaveRestorePoint(parent)
        do {
            try parent.watchingChanges(restorePoint) { try pushChanges(into: parent) }
        } catch {
            restorePoint.restore(parent)
            throw error
        }
        parent.processPendingChanges()
    }

    /// Inserts first (relationships may point at them), then the changed values, then deletes
    /// (whose delete rules then run in the parent on what it holds).
    private func pushChanges(into parent: ManagedObjectContext) throws {
        let counterparts = Counterparts(parent)
        for object in inserted.values {
            // The same temporary ID: unique across the tree of contexts.
            let made = parent.objectClass(for: object.mapping).init(objectID: object.objectID, context: parent)
            try parent.completeInsertion(made)
            counterparts.add(made, for: object)
        }
        for object in inserted.values { try pushValues(of: object, keys: nil, to: counterparts.of(object), counterparts) }
        for object in updated.values { try pushValues(of: object, keys: Set(object.changedKeys()), to: counterparts.of(object), counterparts) }
        for object in deleted.values {
            let target = try counterparts.of(object)
            if !target.isDeleted { try parent.delete(target) }
        }
    }

    /// Sets on `target` the attributes and relationships named by `keys` (all when nil) as
    /// `object` holds them. A to-many stored through its members' to-one is carried by those
    /// members' own pushes, unless it is ordered (its order is the to-many's own).
    private func pushValues(of object: ManagedObject, keys: Set<String>?, to target: ManagedObject, _ counterparts: Counterparts) throws {
        let mapping = object.mapping
        for (index, name) in mapping.attributeNames.enumerated() where keys?.contains(name) ?? true {
            try target.setValue(try object.attributeValue(at: index), forKey: name)
        }
        for (index, relationshipMapping) in mapping.relationships.enumerated() {
            let relationship = relationshipMapping.relationship
            guard keys?.contains(relationship.name) ?? true else { continue }
            if !relationship.isToMany {
                try target.setObject(try object.destination(at: index).map(counterparts.of), forKey: relationship.name)
                continue
            }
            if case .inverseForeignKey = relationshipMapping.storage, !relationship.isOrdered { continue }
            let members = try object.loadedToMany(index).map { try counterparts.of($0.object) }
            try target.setObjects(members, forKey: relationship.name)
        }
    }

    /// After the push: this context holds what its parent now holds, with nothing unsaved.
    /// Its inserted objects stay, as objects the parent inserted.
    private func settlePushedChanges() {
        for object in inserted.values {
            object.lifecycle = .registered
            object.dirtyRelationships = []
            borrowed[object.objectID] = object
        }
        for object in updated.values {
            object.snapshot = nil
            object.dirtyRelationships = []
        }
        for object in deleted.values {
            if object.objectID.isTemporary {
                borrowed.removeValue(forKey: object.objectID)
            } else {
                _ = registered.removeValue(forKey: object.objectID)
            }
            object.managedObjectContext = nil
            object.snapshot = nil
        }
        inserted = InsertionList()
        updated = [:]
        deleted = [:]
        requestedKeys = RequestedKeys()
    }
}

/// The parent's object for each of the child's, looked up once.
private final class Counterparts {
    private let parent: ManagedObjectContext
    private var known: [ObjectIdentifier: ManagedObject] = [:]
    /// The parent's inserted objects by temporary ID (its own lookup walks them one by one).
    private lazy var parentInserts: [ObjectID: ManagedObject] = Dictionary(
        parent.inserted.values.map { ($0.objectID, $0) }, uniquingKeysWith: { first, _ in first })

    init(_ parent: ManagedObjectContext) { self.parent = parent }

    func add(_ counterpart: ManagedObject, for object: ManagedObject) {
        known[ObjectIdentifier(object)] = counterpart
    }

    func of(_ object: ManagedObject) throws -> ManagedObject {
        if let counterpart = known[ObjectIdentifier(object)] { return counterpart }
        let id = object.objectID
        let counterpart = try (id.isTemporary ? parentInserts[id] : nil) ?? parent.object(for: id)
        known[ObjectIdentifier(object)] = counterpart
        return counterpart
    }
}
