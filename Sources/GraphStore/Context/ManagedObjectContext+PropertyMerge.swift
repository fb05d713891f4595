/// Combining the stored state of an object with this context's unsaved changes to it,
/// property by property: what the merge-by-property policies do to a conflict at save, and
/// what ``ManagedObjectContext/refresh(_:mergeChanges:)`` and the merge of another
/// context's save do to an object with unsaved changes.
extension ManagedObjectContext {
    /// Which side keeps a property both changed.
    enum PropertyMergeRule {
        /// This context's unsaved change wins; a property it did not change takes the stored
        /// value (`NSMergeByPropertyObjectTrumpMergePolicy`, `refresh(_:mergeChanges: true)`).
        case localChangesWin
        /// A property changed in the store since this context read it takes the stored
        /// value; the others keep this context's (`NSMergeByPropertyStoreTrumpMergePolicy`).
        case storeChangesWin
    }

    /// Takes `row` (the object's row as stored now) into `object` by `rule`, attribute by
    /// attribute and to-one by to-one; the stored values become the object's committed
    /// state. Returns the names of the properties both sides changed, to different values.
    /// The version the object's save checks is the caller's to move, and relationships'
    /// other sides are the caller's to settle (``settle(_:with:)``) once the merge holds.
    @discardableResult
    func merge(_ row: StoredRow, into object: ManagedObject, _ rule: PropertyMergeRule) throws -> [String] {
        let mapping = object.mapping
        let committed = object.snapshot
        var collisions: [String] = []
        for i in mapping.storedAttributeIndices {
            let ours = object.values[i]
            let stored = row.slot(at: i)
            let before = committed?.values[i] ?? ours
            let changedHere = ours != before
            let changedInStore = stored != before
            if changedHere, changedInStore, ours != stored { collisions.append(mapping.attributeNames[i]) }
            if takesStored(changedHere: changedHere, changedInStore: changedInStore, rule) { object.values[i] = stored }
            object.snapshot?.values[i] = stored
        }
        for toOne in mapping.toOneColumns {
            let i = toOne.index
            let stored = try row.toOne[i].map { ToOneSlot(id: try destinationID(of: mapping, relationship: i, key: $0), order: $0.order) } ?? ToOneSlot()
            let ours = object.toOne[i]
            let before = committed?.toOne[i] ?? ours
            let changedHere = !ours.isSame(as: before)
            let changedInStore = !before.isSame(as: stored)
            if changedHere, changedInStore, !ours.isSame(as: stored) { collisions.append(mapping.relationships[i].relationship.name) }
            if takesStored(changedHere: changedHere, changedInStore: changedInStore, rule) { object.toOne[i] = stored }
            object.snapshot?.toOne[i] = stored
        }
        return collisions
    }

    private func takesStored(changedHere: Bool, changedInStore: Bool, _ rule: PropertyMergeRule) -> Bool {
        switch rule {
        case .localChangesWin: !changedHere
        case .storeChangesWin: changedInStore
        }
    }
}
