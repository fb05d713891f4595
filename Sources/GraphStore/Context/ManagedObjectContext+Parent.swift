import OrderedCollections

/// How a child context (``ManagedObjectContext/init(parent:)``) reads through its parent.
///
/// A child shares its parent's store connection and reads rows from it, then lays over each
/// object the state the nearest ancestor holds for it when that ancestor changed or inserted
/// it: so the child shows the parent's unsaved edits, as Core Data's child contexts do.
/// Objects the parent inserted are found by their temporary IDs and kept in ``borrowed``
/// (the registry takes permanent IDs only) until the parent's save renames them.
///
/// Temporary IDs are unique across a tree of contexts: the root hands each child a range of
/// its own (``reserveTemporaryRange()``), so an object pushed into the parent keeps its ID.
extension ManagedObjectContext {
    /// The context at the top of this one's chain of parents (itself, without a parent).
    var rootContext: ManagedObjectContext {
        var context = self
        while let parent = context.parent { context = parent }
        return context
    }

    /// The first temporary serial of a new range for a child context: ranges are 2⁴⁰
    /// serials apart, far more than any context inserts before it is saved.
    func reserveTemporaryRange() -> Int64 {
        temporaryRangesHandedOut += 1
        return temporaryRangesHandedOut << 40
    }

    /// The child contexts still alive.
    var liveChildren: [ManagedObjectContext] {
        children.removeAll { $0.context == nil }
        return children.compactMap(\.context)
    }

    /// This context's copy of an object an ancestor inserted and has not saved, made on first
    /// use; nil when no ancestor holds such an object.
    func borrowedObject(for id: ObjectID) throws -> ManagedObject? {
        if let object = borrowed[id] { return object }
        guard let parent, let source = try? parent.object(for: id), !source.isDeleted else { return nil }
        let object = objectClass(for: id.mapping).init(objectID: id, context: self)
        // Listed before its state is copied: a relationship back to it finds it.
        borrowed[id] = object
        try copyState(from: source, to: object)
        object.isFault = false
        return object
    }

    /// Lays the nearest ancestor's unsaved state of an object over what its row said.
    func adoptParentState(_ object: ManagedObject) throws {
        guard let source = parent?.changedObject(for: object.objectID) else { return }
        try copyState(from: source, to: object)
    }

    /// The object with this permanent ID as the nearest context up the chain that changed it
    /// holds it, if one did.
    private func changedObject(for id: ObjectID) -> ManagedObject? {
        if let own = registered[id], own.hasData, own.hasChanges { return own }
        return parent?.changedObject(for: id)
    }

    /// Gives `object` the values and relationships `source` (the same object in an ancestor)
    /// holds, its destinations as this context's objects.
    private func copyState(from source: ManagedObject, to object: ManagedObject) throws {
        try source.fireFault()
        object.values = source.values
        for index in object.mapping.relationshipInfo.indices {
            if object.mapping.relationshipInfo[index].isToMany {
                // Not loaded in the ancestor: read from the store when used.
                guard source.toMany[index] != nil else {
                    object.toMany[index] = nil
                    continue
                }
                var members = OrderedSet<ObjectRef>()
                for ref in source.members(index) { members.append(ObjectRef(try self.object(for: ref.object.objectID))) }
                object.toMany[index] = ToManySet(members)
            } else {
                let slot = source.toOne[index]
                guard let id = slot.destinationID else {
                    object.toOne[index] = ToOneSlot()
                    continue
                }
                // A temporary ID is resolved now, so that the slot follows the object when the
                // parent's save gives it a permanent one.
                object.toOne[index] = id.isTemporary ? ToOneSlot(object: try self.object(for: id), order: slot.order) : ToOneSlot(id: id, order: slot.order)
            }
        }
        object.hasData = true
    }

    /// After the parent's save: borrowed objects it saved take their permanent IDs here (and
    /// in this context's children).
    func parentDidSave(_ renamed: [ObjectID: ObjectID]) {
        guard !renamed.isEmpty else { return }
        for (old, new) in renamed {
            guard let key = new.primaryKey, let object = borrowed.removeValue(forKey: old) else { continue }
            assert(new.mapping === object.mapping, "an object's entity does not change")
            object.objectID = new
            object.version = 1
            registered.insert(object, number: new.mapping.number, key: key)
        }
        for child in liveChildren { child.parentDidSave(renamed) }
    }
}

/// A child context as its parent knows it: without keeping it alive.
struct WeakContext {
    weak var context: ManagedObjectContext?

    init(_ context: ManagedObjectContext) { self.context = context }
}

extension PendingFetchChanges {
    /// The unsaved changes of a child context's ancestors that bear on a fetch: the nearest
    /// ancestor's state of an object decides, and the child's own changes before any.
    /// Objects the ancestors inserted come before the child's own inserts.
    mutating func addChanges(
        ofParentsOf context: ManagedObjectContext, request: FetchRequest<ManagedObject>, query: FetchQuery, numbers: Set<Int>
    ) throws {
        let sorted = !query.sorts.isEmpty
        var decided = changed.union(deleted)
        var inheritedInserts: [ObjectID] = []
        var ancestor = context.parent
        while let current = ancestor {
            for object in current.deleted.values where numbers.contains(object.mapping.number) {
                if decided.insert(object.objectID).inserted { deleted.insert(object.objectID) }
            }
            for object in current.updated.values where numbers.contains(object.mapping.number) {
                guard decided.insert(object.objectID).inserted else { continue }
                let mine = try context.object(for: object.objectID)
                try mine.fireFault()
                changed.insert(mine.objectID)
                guard try request.predicate?.matches(mine) ?? true else { continue }
                let candidate = FetchCandidate(id: mine.objectID, object: mine, sortValues: try mine.sortValues(for: query.sorts))
                if sorted { matches.append(candidate) } else { changedMatches.append(candidate) }
            }
            for object in current.inserted.values where numbers.contains(object.mapping.number) {
                if decided.insert(object.objectID).inserted { inheritedInserts.append(object.objectID) }
            }
            ancestor = current.parent
        }
        for (position, id) in inheritedInserts.enumerated() {
            let mine = try context.object(for: id)
            guard !mine.isDeleted, try request.predicate?.matches(mine) ?? true else { continue }
            matches.append(FetchCandidate(
                id: id, object: mine, sortValues: try mine.sortValues(for: query.sorts), insertionIndex: position - inheritedInserts.count))
        }
    }
}
