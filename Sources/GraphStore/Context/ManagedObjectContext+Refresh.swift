/// Core Data's `refresh(_:mergeChanges:)`: an object brought up to date with the store,
/// its unsaved changes dropped or kept on top.
extension ManagedObjectContext {
    /// Reads an object again from the store. With `mergeChanges` false, its unsaved changes
    /// are dropped (``reload(_:)``). With `mergeChanges` true, the stored values are taken
    /// for every property this context did not change, and this context's changes are kept
    /// on top of them (a loaded to-many it changed holds the stored members plus the ones it
    /// added, minus the ones it removed); the stored version becomes the one its save checks, so saving then
    /// writes the changes over what someone else saved without a conflict, property by
    /// property. An object whose row is gone leaves the context either way; inserted
    /// objects, deleted ones (with `mergeChanges` true) and those of another context are
    /// left as they are. Its fetched properties are fetched again when next read.
    ///
    /// ```swift
    /// try book.set("price", 12.0)                  // unsaved
    /// // … another context saves a new title …
    /// try context.refresh(book, mergeChanges: true)
    /// try book.get("title", as: String.self)       // the other context's title
    /// try book.get("price", as: Double.self)       // 12.0, still unsaved
    /// ```
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) throws {
        try refresh(object, mergeChanges: mergeChanges, keepingCollisions: false)
    }

    /// ``refresh(_:mergeChanges:)``; with `keepingCollisions`, an object whose unsaved change
    /// and the stored row changed one property to different values keeps checking the
    /// version it read, so that its save meets the other change as a conflict.
    func refresh(_ object: ManagedObject, mergeChanges: Bool, keepingCollisions: Bool) throws {
        guard object.managedObjectContext === self, let key = object.objectID.primaryKey, !object.isDeleted || !mergeChanges else { return }
        guard mergeChanges, object.isUpdated else {
            try reload([object])
            return
        }
        guard let row = try store.row(of: object.mapping, primaryKey: key), row.entityNumber == object.mapping.number else {
            try reload([object])
            return
        }
        // A merge policy may refresh during a save, which puts everything back if it fails.
        saveRestorePoint?.keep(object)
        let before = partners(of: object)
        let collisions = try merge(row, into: object, .localChangesWin)
        noteRefreshed(object, gone: false)
        // Fetched properties are fetched again when next read, as after a reload.
        object.fetchedResults = [:]
        if collisions.isEmpty || !keepingCollisions {
            object.version = row.version
            acceptStoredVersion(row.version, of: object, key: key)
        }
        for index in object.mapping.toManyIndices where object.toMany[index] != nil {
            let stored = try loadToMany(object.mapping.relationships[index], of: key)
            guard let committed = object.snapshot?.toMany[index] else {
                // A loaded to-many this context did not change is read again.
                object.toMany[index] = ToManySet(stored)
                continue
            }
            // One it changed takes the stored members, with this context's additions and
            // removals on top, as Core Data's refresh merges a to-many.
            let before = committed?.settledMembers ?? []
            let current = object.members(index)
            var merged = stored.filter { current.contains($0) || !before.contains($0) }
            for member in current where !before.contains(member) { merged.append(member) }
            object.snapshot?.toMany[index] = .some(ToManySet(stored))
            object.toMany[index] = ToManySet(merged)
        }
        try settle(before, with: object)
        if object.matchesSnapshot {
            object.snapshot = nil
            updated.removeValue(forKey: ObjectIdentifier(object))
        }
    }
}
