/// Reading objects again from the store: how a conflict is resolved in the store's favour.
extension ManagedObjectContext {
    /// Reads objects again from the store, dropping this context's unsaved changes to them
    /// (an update or a delete), and takes the stored version: a save no longer conflicts
    /// with what someone else saved meanwhile. Core Data's `refresh(_:mergeChanges: false)`.
    ///
    /// - Objects that were never saved (inserted ones) have nothing stored and are left as
    ///   they are, as are objects of another context.
    /// - An object whose row is gone leaves the context, as a saved delete does; the IDs of
    ///   those objects are returned.
    /// - Values and relationships are read now. The other side of each relationship is made
    ///   to agree (a category that lost the book to a delete gets it back); an object at the
    ///   other end keeps its other pending changes.
    /// - The undo stacks are cleared, as by ``rollback()``: what they describe no longer
    ///   applies to the reloaded objects.
    /// - Fetched properties are fetched again when next read.
    ///
    /// ```swift
    /// do {
    ///     try context.save()
    /// } catch StoreError.optimisticLockingFailure(let conflicts) {
    ///     try context.reload(conflicts.map { try context.object(for: $0.objectID) })
    ///     try context.save()      // the other changes, over the stored values
    /// }
    /// ```
    @discardableResult
    public func reload(_ objects: [ManagedObject]) throws -> [ObjectID] {
        var gone: [ObjectID] = []
        var reloaded = false
        for object in objects {
            guard object.managedObjectContext === self, let key = object.objectID.primaryKey else { continue }
            // Read (and check) the row before anything of the object changes.
            var row = try store.row(of: object.mapping, primaryKey: key)
            if let found = row, found.entityNumber != object.mapping.number { row = nil }
            reloaded = true
            // A merge policy may reload during a save, which puts everything back if it fails.
            saveRestorePoint?.keep(object)
            let before = partners(of: object)
            updated.removeValue(forKey: ObjectIdentifier(object))
            deleted.removeValue(forKey: ObjectIdentifier(object))
            object.snapshot = nil
            object.dirtyRelationships = []
            object.lifecycle = .registered
            object.fetchedResults = [:]
            guard let row else {
                noteRefreshed(object, gone: true)
                saveRestorePoint?.keepRegistration(object)
                registered.removeValue(forKey: object.objectID)
                object.managedObjectContext = nil
                gone.append(object.objectID)
                continue
            }
            noteRefreshed(object, gone: false)
            acceptStoredVersion(row.version, of: object, key: key)
            try apply(row, to: object)
            for index in object.mapping.toManyIndices {
                // A loaded to-many is read again now: objects at its other end may need fixing.
                object.toMany[index] = object.toMany[index] == nil ? nil : ToManySet(try loadToMany(object.mapping.relationships[index], of: key))
            }
            try settle(before, with: object)
            // Filled but untouched, as a fetched object is: the first access wakes it.
            object.isFault = true
        }
        if reloaded { installedUndoManager?.removeAllActions() }
        return gone
    }

    /// Makes `version`, read from the store, the one a save of `object` checks from now on,
    /// also if the object is let go of and made again.
    func acceptStoredVersion(_ version: Int64, of object: ManagedObject, key: Int64) {
        if let seen = seenVersions.version(number: object.mapping.number, key: key) {
            saveRestorePoint?.keepSeenVersion(seen, number: object.mapping.number, key: key)
            seenVersions.record(version, number: object.mapping.number, key: key)
        }
    }

    /// The registered objects at the other end of each of `object`'s relationships that has
    /// an inverse, by relationship index (to-manys only when loaded: otherwise no change
    /// through them can be pending).
    func partners(of object: ManagedObject) -> [Int: [ManagedObject]] {
        var found: [Int: [ManagedObject]] = [:]
        for (index, info) in object.mapping.relationshipInfo.enumerated() where info.inverse != nil {
            if info.isToMany {
                found[index] = object.members(index).map(\.object)
            } else if let destination = object.toOne[index].object ?? object.toOne[index].id.flatMap({ registered[$0] }) {
                found[index] = [destination]
            }
        }
        return found
    }

    /// Makes the other side of `object`'s relationships agree with what was just read: each
    /// partner before or after the reload holds `object` in its inverse exactly when the
    /// store relates them. A partner left with no difference from its committed state is
    /// no longer updated.
    func settle(_ before: [Int: [ManagedObject]], with object: ManagedObject) throws {
        let after = partners(of: object)
        for (index, info) in object.mapping.relationshipInfo.enumerated() {
            guard let inverse = info.inverse else { continue }
            let now = after[index] ?? []
            var seen = Set<ObjectIdentifier>()
            for partner in (before[index] ?? []) + now where seen.insert(ObjectIdentifier(partner)).inserted {
                guard partner.managedObjectContext === self, !partner.isDeleted, partner.hasData,
                    let inverseIndex = partner.mapping.relationshipIndex(of: inverse)
                else { continue }
                saveRestorePoint?.keep(partner)
                partner.relate(object, at: inverseIndex, now.contains { $0 === partner })
                if partner.snapshot != nil, partner.matchesSnapshot {
                    partner.snapshot = nil
                    updated.removeValue(forKey: ObjectIdentifier(partner))
                }
            }
        }
    }
}

extension ManagedObject {
    /// Puts `object` in (or out of) this object's relationship at `index` without recording
    /// a change: the reload of `object` says what the store holds.
    fileprivate func relate(_ object: ManagedObject, at index: Int, _ related: Bool) {
        let ref = ObjectRef(object)
        if mapping.relationshipInfo[index].isToMany {
            guard toMany[index] != nil else { return }
            let present = members(index).contains(ref)
            if related, !present {
                // Back where the committed state had it, if it had it.
                let committed = snapshot?.toMany[index] ?? nil
                let position = committed?.settledMembers.firstIndex(of: ref) ?? Int.max
                toMany.update(index) { _ = $0?.insert(ref, at: position) }
            } else if !related, present {
                toMany.update(index) { _ = $0?.remove(ref) }
            }
            return
        }
        let slot = toOne[index]
        let pointsHere = slot.object === object || (slot.object == nil && slot.id == object.objectID)
        if related, !pointsHere {
            toOne[index] = ToOneSlot(object: object, id: nil, order: slot.order)
        } else if !related, pointsHere {
            toOne[index] = snapshot?.toOne[index] ?? ToOneSlot()
        }
    }

    /// Whether the object holds exactly its committed state (unordered to-manys compared as sets).
    var matchesSnapshot: Bool {
        guard let snapshot else { return true }
        guard snapshot.values == values else { return false }
        for index in toOne.indices where !snapshot.toOne[index].isSame(as: toOne[index]) { return false }
        for (index, committed) in snapshot.toMany {
            let current = members(index)
            let stored = committed?.settledMembers ?? []
            let same = mapping.relationshipInfo[index].isOrdered ? current == stored : Set(current) == Set(stored)
            if !same { return false }
        }
        return true
    }
}
