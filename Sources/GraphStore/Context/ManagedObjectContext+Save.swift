import OrderedCollections

/// The save pipeline: hooks, validation, then every insert, update, delete and join-table
/// change in one SQLite transaction. Whatever the save changed in memory before the
/// transaction committed is put back if it fails (see ``SaveRestorePoint``), so a failed save
/// leaves the context exactly as it was.
extension ManagedObjectContext {
    /// Saves every change in one transaction, resolving conflicts by ``mergePolicy``.
    ///
    /// A changed or deleted object whose row someone else saved (or deleted) since this
    /// context read it is a conflict: with ``MergePolicy/error`` the save throws
    /// ``StoreError/optimisticLockingFailure(_:)`` (133020) listing every one, writes nothing,
    /// and keeps the changes pending. Objects that share a uniqueness constraint's values
    /// are one too (``ConstraintConflictError``, 133021, under the error policy).
    public func save() throws {
        try save(mergePolicy: mergePolicy)
    }

    /// Saves every change in one transaction, resolving conflicts by `policy` (for this save
    /// only), and returns the optimistic-locking conflicts it resolved (none under
    /// ``MergePolicy/error``, which throws them instead).
    ///
    /// ```swift
    /// do {
    ///     try context.save()
    /// } catch StoreError.optimisticLockingFailure(let conflicts) {
    ///     print(conflicts.map(\.description).joined(separator: "\n"))
    ///     let overwritten = try context.save(mergePolicy: .overwrite)   // keep ours
    /// }
    /// ```
    ///
    /// The policy runs inside the transaction, each time an attempt to write meets
    /// conflicts; then the save tries again (see ``MergePolicy``).
    @discardableResult
    public func save(mergePolicy policy: MergePolicy) throws -> [MergeConflict] {
        guard hasChanges else { return [] }
        if let parent {
            try saveIntoParent(parent)
            return []
        }
        guard !store.isReadOnly else { throw StoreError.readOnly(path: store.path) }
        // Work built on a typed read or write that failed is not saved silently.
        if let failure = accessErrorLog.failure { throw failure }
        processPendingChanges()
        postWillSave()
        let restorePoint = SaveRestorePoint(self)
        do {
            try watchingChanges(restorePoint) { try prepareForWriting(restorePoint) }
            let resolution = ConflictResolution(restorePoint: restorePoint)
            let derived = try writeChanges(policy, resolution)
            let saved = (inserted: Array(inserted.values), updated: Array(updated.values), deleted: Array(deleted.values))
            commit()
            // What the hooks changed is saved: not a change still to announce.
            pendingEvent = PendingEvent()
            showDerivedValues(derived)
            settleAfterMerges(resolution)
            let savedIDs = postDidSave(inserted: saved.inserted, updated: saved.updated, deleted: saved.deleted)
            didSaveChanges?(savedIDs)
            processPendingChanges()
            return resolution.resolved
        } catch {
            restorePoint.restore(self)
            throw error
        }
    }

    /// Runs `body` with every change to an object (recorded or primitive) kept by
    /// `restorePoint` first.
    func watchingChanges(_ restorePoint: SaveRestorePoint, _ body: () throws -> Void) rethrows {
        saveRestorePoint = restorePoint
        // Appended last and removed last: an undo manager finds its own observer by position.
        changeObservers.append { object, kind in restorePoint.keep(object, kind) }
        defer {
            changeObservers.removeLast()
            saveRestorePoint = nil
        }
        try body()
    }

    /// What runs before an attempt to write: the `willSave` hooks, validation, and the
    /// members of reordered relationships marked for writing.
    private func prepareForWriting(_ restorePoint: SaveRestorePoint) throws {
        // Each list is walked as it is (no concatenated copy: that retained and released
        // every inserted object once more per save).
        for object in inserted.values { object.willSave() }
        for object in updated.values { object.willSave() }
        for object in deleted.values { object.willSave() }
        if validatesOnSave { try validatePendingChanges() }
        try markReorderedMembers(restorePoint)
    }

    /// Writes every change in one transaction, in attempts: an attempt that meets conflicts
    /// writes nothing (a savepoint takes it back), hands them to `policy`, and the save
    /// prepares and tries again while each attempt leaves fewer conflicts. Returns the
    /// derived values the store recomputed.
    private func writeChanges(_ policy: MergePolicy, _ resolution: ConflictResolution) throws -> [DerivedValueChange] {
        try store.transaction {
            var left = Int.max
            while true {
                var met = MetConflicts()
                do {
                    return try store.savepoint {
                        met = try findConflicts(resolution)
                        if !met.isEmpty { throw MetConflicts.Found() }
                        return try writeInsertsAndRest()
                    }
                } catch is MetConflicts.Found {}
                // A policy that resolved nothing last time fails the save with what is left.
                guard met.count < left else { throw met.failure }
                left = met.count
                resolution.handing(met.optimistic)
                try watchingChanges(resolution.restorePoint) {
                    conflictResolution = resolution
                    defer { conflictResolution = nil }
                    try policy.resolve(mergeConflicts: met.all)
                    try prepareForWriting(resolution.restorePoint)
                }
            }
        }
    }

    /// The first half of an attempt: keys for the inserted objects, uniqueness checked,
    /// then deletes and updates written while their rows have the versions read. Deletes,
    /// then updates, then (``writeInsertsAndRest()``) inserts: a unique value given up by a
    /// deleted or changed row is free again before a new row takes it (stores made with
    /// uniqueness constraints carry a UNIQUE index).
    private func findConflicts(_ resolution: ConflictResolution) throws -> MetConflicts {
        store.discardDerivedValueReports()
        try allocateKeys()
        var met = MetConflicts()
        if validatesOnSave { met.constraints = try constraintConflicts() }
        // With uniqueness conflicts standing, a store's UNIQUE index would refuse a row:
        // versions are only read, and nothing is written before the policy has run.
        let writes = met.constraints.isEmpty
        for object in deleted.values where !resolution.isAlreadyGone(object) {
            let key = object.objectID.primaryKey ?? 0
            let current =
                writes
                ? try store.deleteRow(object.mapping, primaryKey: key, checking: object.version)
                : try store.storedVersion(of: object.mapping, primaryKey: key) == object.version
            if !current { met.optimistic.append(try ConflictResolution.conflict(of: object, isDeletion: true, in: self)) }
        }
        for object in updated.values {
            let current =
                writes
                ? try writeRow(of: object, version: object.version)
                : try store.storedVersion(of: object.mapping, primaryKey: object.objectID.primaryKey ?? 0) == object.version
            if !current { met.optimistic.append(try ConflictResolution.conflict(of: object, isDeletion: false, in: self)) }
        }
        return met
    }

    /// The second half of an attempt that met no conflict: join rows of deleted objects
    /// gone, inserts, join rows, derived attributes, history. Returns the derived values.
    private func writeInsertsAndRest() throws -> [DerivedValueChange] {
        for object in deleted.values { try deleteJoinRows(object) }
        for object in inserted.values {
            try store.insertRow(object.mapping, primaryKey: object.pendingKey ?? 0, from: ObjectRow(object: object, context: self))
        }
        for object in inserted.values { try writeJoinRows(object) }
        for object in updated.values { try writeJoinRows(object) }
        let derived = try recomputeDerivedAttributes()
        try recordHistory()
        return derived
    }

    /// After the save committed: objects whose changes a rollback policy dropped show the
    /// stored values, and the other ends of to-ones a merge took from the store agree with
    /// them. A failure to read here does not undo the save: it is kept as a failed typed
    /// access is (see ``AccessError``), and the next save reports it.
    private func settleAfterMerges(_ resolution: ConflictResolution) {
        do {
            for (object, partners) in resolution.merged { try settle(partners, with: object) }
            if !resolution.rolledBack.isEmpty { try reload(resolution.rolledBack) }
        } catch {
            let id = resolution.rolledBack.first?.objectID ?? resolution.merged.first?.object.objectID
            if let id { accessErrorLog.append(AccessError(objectID: id, key: "(merge)", underlying: error)) }
        }
    }

    /// Updates an object's row if its version is still `version`.
    func writeRow(of object: ManagedObject, version: Int64) throws -> Bool {
        try store.updateRow(object.mapping, primaryKey: object.objectID.primaryKey ?? 0, version: version, from: ObjectRow(object: object, context: self))
    }

    /// Checks run before writing (uniqueness aside: see ``findConflicts(_:)``); validation
    /// rules plug in here.
    func validatePendingChanges() throws {
        try validateForSave()
    }

    /// Members of an ordered to-many whose inverse is a to-one carry their position in a
    /// `Z_FOK_` column of their own row, so a reordered relationship updates its members.
    private func markReorderedMembers(_ restorePoint: SaveRestorePoint) throws {
        for object in inserted.values where !object.dirtyRelationships.isEmpty { try markReorderedMembers(of: object, restorePoint) }
        for object in updated.values where !object.dirtyRelationships.isEmpty { try markReorderedMembers(of: object, restorePoint) }
    }

    private func markReorderedMembers(of object: ManagedObject, _ restorePoint: SaveRestorePoint) throws {
        for index in object.dirtyRelationships.indices {
            guard case .inverseForeignKey(_, _, _, .some) = object.mapping.relationships[index].storage else { continue }
            for ref in object.members(index) where ref.object.lifecycle == .registered {
                let member = ref.object
                try member.fireFault()
                restorePoint.keep(member)
                member.takeSnapshotIfNeeded()
                updated[ObjectIdentifier(member)] = member
            }
        }
    }

    /// Hands out keys per inheritance root; they are kept on the objects as pending keys
    /// until the transaction commits.
    private func allocateKeys() throws {
        // Inserts come in runs of one entity: count and assign a run at a time rather than
        // hashing the root's name (or gathering the objects in lists) once per object.
        var counts: [String: Int] = [:]
        var requestedTops: [String: Int64] = [:]
        forEachRunOfRoot { root, run in
            guard !requestedKeys.isEmpty else {
                counts[root, default: 0] += run.count
                return
            }
            for object in run {
                if let key = requestedKeys[object.objectID] {
                    requestedTops[root] = max(requestedTops[root] ?? 0, key)
                } else {
                    counts[root, default: 0] += 1
                }
            }
        }
        // Keys asked for first, so that those handed out start above them.
        for (root, top) in requestedTops.sorted(by: { $0.key < $1.key }) {
            try store.reservePrimaryKeys(root: store.mapping(for: root), through: top)
        }
        var next: [String: Int64] = [:]
        for (root, count) in counts.sorted(by: { $0.key < $1.key }) where count > 0 {
            next[root] = try store.allocatePrimaryKeys(root: store.mapping(for: root), count: count).lowerBound
        }
        forEachRunOfRoot { root, run in
            var key = next[root] ?? 0
            for object in run {
                if let requested = requestedKeys.isEmpty ? nil : requestedKeys[object.objectID] {
                    object.pendingKey = requested
                    continue
                }
                object.pendingKey = key
                // Wrapping: past the last key handed out (Int64.max at most) nothing reads it.
                key &+= 1
            }
            next[root] = key
        }
    }

    /// Calls `body` with each run of consecutive inserted objects that share a root entity.
    private func forEachRunOfRoot(_ body: (String, ArraySlice<ManagedObject>) -> Void) {
        let objects = inserted.values
        var start = objects.startIndex
        while start < objects.endIndex {
            let root = objects[start].mapping.rootName
            var end = start + 1
            while end < objects.endIndex, objects[end].mapping.rootName == root { end += 1 }
            body(root, objects[start..<end])
            start = end
        }
    }

    /// The `Z_FOK_` value of an object in its to-one destination's ordered inverse.
    fileprivate func order(of object: ManagedObject, in relationship: RelationshipMapping, slot: ToOneSlot) -> Int64? {
        if slot.isEmpty { return nil }
        // A slot read from the row holds only the owner's ID; a registered owner may have
        // been reordered, so its members' positions come from it all the same.
        if let owner = slot.object ?? slot.id.flatMap({ registered[$0] }), let inverse = relationship.relationship.inverse,
            let index = owner.mapping.relationshipIndex(of: inverse), owner.toMany[index] != nil,
            let position = owner.members(index).firstIndex(of: ObjectRef(object))
        {
            return PersistentStore.orderValue(at: position)
        }
        return slot.order
    }

    private func writeJoinRows(_ object: ManagedObject) throws {
        guard !object.dirtyRelationships.isEmpty, let source = object.objectID.primaryKey ?? object.pendingKey else { return }
        for index in object.dirtyRelationships.indices {
            guard case .joinTable(let join) = object.mapping.relationships[index].storage, object.toMany[index] != nil else { continue }
            let members = object.members(index)
            let inverseName = object.mapping.relationships[index].relationship.inverse
            var keys: [Int64] = []
            var inverseOrders: [Int64?] = []
            for ref in members {
                guard let member = ref.object.objectID.primaryKey ?? ref.object.pendingKey else { continue }
                keys.append(member)
                var inverseOrder: Int64?
                if join.inverseOrderColumn != nil, let inverseName, let i = ref.object.mapping.relationshipIndex(of: inverseName),
                    ref.object.toMany[i] != nil, let position = ref.object.members(i).firstIndex(of: ObjectRef(object))
                {
                    inverseOrder = PersistentStore.orderValue(at: position)
                }
                inverseOrders.append(inverseOrder)
            }
            try store.replaceJoinRows(join, source: source, members: keys, inverseOrders: inverseOrders)
        }
    }

    private func deleteJoinRows(_ object: ManagedObject) throws {
        guard let key = object.objectID.primaryKey else { return }
        for r in object.mapping.relationships {
            if case .joinTable(let join) = r.storage { try store.removeJoinRows(join, object: key) }
        }
    }

    /// After the transaction committed: permanent IDs, new versions (over the stored ones a
    /// merge policy took for rows it wrote over), clean state.
    private func commit() {
        var renamed: [ObjectID: ObjectID] = [:]
        renamed.reserveCapacity(observesRenames ? inserted.count : 0)
        registered.reserveCapacity(registered.count + inserted.count)
        requestedKeys = RequestedKeys()
        for object in inserted.values {
            guard let key = object.pendingKey else { continue }
            let id = store.objectID(object.mapping, primaryKey: key)
            if observesRenames { renamed[object.objectID] = id }
            assert(id.mapping === object.mapping, "an object's entity does not change")
            object.objectID = id
            object.pendingKey = nil
            object.version = 1
            object.lifecycle = .registered
            object.dirtyRelationships = []
            registered.insert(object, number: object.mapping.number, key: key)
        }
        for object in updated.values {
            object.version += 1
            object.snapshot = nil
            object.dirtyRelationships = []
        }
        for object in deleted.values {
            registered.removeValue(forKey: object.objectID)
            object.managedObjectContext = nil
            object.snapshot = nil
        }
        let saved = (inserted.values, updated.values, deleted.values)
        inserted = InsertionList()
        updated = [:]
        deleted = [:]
        for object in saved.0 { object.didSave() }
        for object in saved.1 { object.didSave() }
        for object in saved.2 { object.didSave() }
        didSaveObservers.forEach { $0(renamed) }
        for child in liveChildren { child.parentDidSave(renamed) }
    }

    private var observesRenames: Bool { !didSaveObservers.isEmpty || !children.isEmpty }
}

/// An object's row as the store's writer reads it: its values and to-ones as the object
/// holds them (a destination saved in this same save by its pending key).
private struct ObjectRow: RowSource {
    let object: ManagedObject
    let context: ManagedObjectContext

    func value(ofAttribute index: Int) -> AttributeValue? { object.values[index].valueAtHand ?? nil }

    func deferredValue(ofAttribute index: Int) -> DeferredValue? { object.values[index].deferred }

    func destinationKey(ofRelationship index: Int) -> Int64? {
        let slot = object.toOne[index]
        if let destination = slot.object { return destination.objectID.primaryKey ?? destination.pendingKey }
        return slot.id?.primaryKey
    }

    func destinationEntity(ofRelationship index: Int) -> Int? {
        let slot = object.toOne[index]
        return slot.object?.mapping.number ?? slot.id?.mapping.number
    }

    func order(inRelationship index: Int) -> Int64? {
        context.order(of: object, in: object.mapping.relationships[index], slot: object.toOne[index])
    }
}

/// The conflicts one attempt of a save met.
private struct MetConflicts {
    var optimistic: [MergeConflict] = []
    var constraints: [ConstraintConflict] = []

    var isEmpty: Bool { optimistic.isEmpty && constraints.isEmpty }

    /// The objects in conflict: what a policy must leave fewer of for the save to try again.
    var count: Int { optimistic.count + constraints.reduce(0) { $0 + $1.conflictingObjects.count } }

    /// Both lists as a policy's ``MergePolicy/resolve(mergeConflicts:)`` takes them.
    var all: [Any] { optimistic.map { $0 as Any } + constraints.map { $0 as Any } }

    /// What a save that ends with these conflicts throws: the versions first, as the policy
    /// met them first.
    var failure: any Error {
        optimistic.isEmpty
            ? ConstraintConflictError(constraints.flatMap(\.validationErrors))
            : StoreError.optimisticLockingFailure(optimistic.map(\.saveConflict))
    }

    /// Thrown to take back an attempt that met conflicts.
    struct Found: Error {}
}
