/// After an undo, a redo or a group taken back: an object whose values and relationships
/// are again those it was read with has no change left. It leaves ``ManagedObjectContext/updatedObjects``
/// (so ``ManagedObjectContext/hasChanges`` says false and a save writes nothing for it),
/// where it would otherwise stay listed with no changed key.
extension ManagedObjectContext {
    /// Forgets the updates that undoing took back whole.
    func forgetUndoneUpdates() {
        for (key, object) in updated where object.lifecycle == .registered && object.isAsRead {
            object.snapshot = nil
            object.dirtyRelationships = []
            updated.removeValue(forKey: key)
        }
    }
}

extension ManagedObject {
    /// Whether every attribute, to-one and to-many holds what the snapshot kept (a to-many
    /// that was not loaded when it was first changed counts as changed).
    var isAsRead: Bool {
        guard let snapshot else { return false }
        for index in mapping.attributes.indices where snapshot.values[index] != values[index] { return false }
        for index in mapping.relationships.indices where !mapping.relationships[index].relationship.isToMany {
            if !snapshot.toOne[index].isSame(as: toOne[index]) { return false }
        }
        for (index, kept) in snapshot.toMany {
            guard let kept, let now = toMany[index], kept == now else { return false }
        }
        return true
    }
}
