/// The context's side of undo: the ``undoManager`` property, and the two moves undo makes
/// that no public operation does (taking an insert back, bringing a deleted object back)
/// because they must not run delete rules or awake hooks: the relationship records of the
/// group restore the inverse sides themselves.
extension ManagedObjectContext {
    /// The undo manager registering this context's changes, or nil (the default: changes
    /// then cost nothing extra).
    ///
    /// Setting a manager installs its observer; removing it (or setting another) uninstalls
    /// it and clears its stacks, since changes made meanwhile would not be on them. A
    /// manager serves one context: setting it on another moves it there.
    ///
    /// ```swift
    /// context.undoManager = ContextUndoManager()
    /// try context.insert("Book")
    /// context.undoManager?.endEvent()
    /// try context.undoManager?.undo()
    /// ```
    public var undoManager: ContextUndoManager? {
        get { installedUndoManager }
        set {
            guard newValue !== installedUndoManager else { return }
            if let old = installedUndoManager {
                installedUndoManager = nil
                old.uninstall(from: self)
            }
            guard let newValue else { return }
            newValue.context?.undoManager = nil
            newValue.install(on: self)
            installedUndoManager = newValue
        }
    }

    /// Takes an object out of the context without delete rules: an insert taken back
    /// (the object leaves, as a deleted insert does) or a saved object whose insert is
    /// undone after the save (it becomes a pending delete, so that the next save removes
    /// its row).
    func withdraw(_ object: ManagedObject) throws {
        switch object.lifecycle {
        case .inserted:
            object.lifecycle = .deleted
            inserted.takeBack(object)
            object.managedObjectContext = nil
        case .registered:
            try object.fireFault()
            object.lifecycle = .deleted
            updated.removeValue(forKey: ObjectIdentifier(object))
            deleted[ObjectIdentifier(object)] = object
        case .deleted:
            return
        }
    }

    /// Brings a deleted object back without awake hooks: a pending delete is cancelled;
    /// an object that left the context (an undone or deleted insert, or a delete already
    /// saved) is inserted again, keeping its values and relationships. After a saved
    /// delete its row is gone, so it gets a new temporary ID and its next save a new key.
    func reinstate(_ object: ManagedObject) throws {
        guard object.lifecycle == .deleted else { return }
        if object.managedObjectContext === self {
            deleted.removeValue(forKey: ObjectIdentifier(object))
            object.lifecycle = .registered
            if object.snapshot != nil { updated[ObjectIdentifier(object)] = object }
            return
        }
        guard object.managedObjectContext == nil else { throw StoreError.foreignObject(object.objectID.description) }
        if !object.objectID.isTemporary {
            object.objectID = ObjectID(temporaryFor: object.mapping, serial: nextTemporaryID)
            nextTemporaryID += 1
            object.version = 0
            // Its join-table rows went with the saved delete: write every loaded to-many again.
            for index in object.mapping.toManyIndices where object.toMany[index] != nil {
                object.dirtyRelationships.insert(index)
            }
        }
        object.snapshot = nil
        inserted.restore(object)
        object.lifecycle = .inserted
        object.managedObjectContext = self
    }
}

extension ContextUndoManager {
    /// Starts listening to a context's changes.
    func install(on context: ManagedObjectContext) {
        self.context = context
        observerPosition = context.changeObservers.count
        context.changeObservers.append { [self] object, kind in try register(object, kind) }
    }

    /// Stops listening, and forgets the groups: they describe a context that changes on
    /// without them from now on.
    func uninstall(from context: ManagedObjectContext) {
        // Observers are closures and cannot be compared: the manager's is found by the
        // position it was appended at (observers are never removed by anything else).
        if let position = observerPosition, position < context.changeObservers.count {
            context.changeObservers.remove(at: position)
        }
        observerPosition = nil
        self.context = nil
        frames = []
        openActionName = ""
        removeAllActions()
    }
}

extension ManagedObject {
    /// Cuts an object that left the context for good loose from the objects it points at,
    /// so that withdrawn objects pointing at each other are freed. Its relationships read
    /// as empty afterwards.
    func dropRelationshipsAfterUndo() {
        for index in toOne.indices where !toOne[index].isEmpty { toOne[index] = ToOneSlot() }
        for index in toMany.indices where toMany[index] != nil { toMany[index] = ToManySet() }
    }
}
