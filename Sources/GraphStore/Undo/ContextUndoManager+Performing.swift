/// Undo, redo, and taking back the open group: records are reverted newest first, through
/// the context's recorded primitives, so that each revert registers its opposite into the
/// group being built for the other stack.
extension ContextUndoManager {
    /// Takes back the last group (closing the open group first if it is the only one), and
    /// puts it on the redo stack. Does nothing when there is nothing to undo.
    ///
    /// Throws ``UndoError/nestedGroupsOpen(level:)`` while nested groups are open. If a
    /// change cannot be reverted (an object's row vanished from the store), the context is
    /// put back as it was and the group stays on the undo stack.
    public func undo() throws {
        guard !isUndoing, !isRedoing else { throw UndoError.alreadyPerforming }
        if frames.count == 1 { try endUndoGrouping() }
        guard frames.isEmpty else { throw UndoError.nestedGroupsOpen(level: frames.count) }
        guard let group = undoStack.popLast() else { return }
        try perform(group, undoing: true)
    }

    /// Applies the last undone group again and puts it back on the undo stack. Does
    /// nothing when there is nothing to redo.
    public func redo() throws {
        guard !isUndoing, !isRedoing else { throw UndoError.alreadyPerforming }
        if frames.count == 1 { try endUndoGrouping() }
        guard frames.isEmpty else { throw UndoError.nestedGroupsOpen(level: frames.count) }
        guard let group = redoStack.popLast() else { return }
        try perform(group, undoing: false)
    }

    /// Reverts the changes of the innermost open group and closes it, leaving nothing to
    /// redo: a failed command taken back as if it had not run.
    public func revertOpenGroup() throws {
        guard let frame = frames.last else { throw UndoError.endWithoutBegin }
        guard let context else { throw UndoError.notInstalled }
        let records = openRecords[frame.start...]
        openRecords.removeSubrange(frame.start...)
        frames.removeLast()
        if frames.isEmpty { openActionName = "" }
        disableCount += 1
        defer { disableCount -= 1 }
        for record in records.reversed() { try revert(record, in: context) }
        context.forgetUndoneUpdates()
    }

    /// Reverts a group's records into a new group for the other stack.
    private func perform(_ group: UndoGroup, undoing: Bool) throws {
        guard let context else {
            push(group, undoing: !undoing)
            throw UndoError.notInstalled
        }
        if undoing { isUndoing = true } else { isRedoing = true }
        defer {
            isUndoing = false
            isRedoing = false
            // An undo is an event of its own: observers see what it changed back.
            context.processPendingChanges()
        }
        frames = [Frame(start: 0, automatic: false)]
        openRecords = []
        openRecords.reserveCapacity(group.records.count)
        do {
            for record in group.records.reversed() { try revert(record, in: context) }
        } catch {
            // Put back what was reverted so far, without registering, and leave the group
            // where it was: a half-applied undo would be worse than none.
            let applied = openRecords
            openRecords = []
            frames = []
            disableCount += 1
            for record in applied.reversed() { try? revert(record, in: context) }
            disableCount -= 1
            push(group, undoing: !undoing)
            throw UndoError.couldNotApply(group: group.number, actionName: group.actionName, reason: "\(error)")
        }
        let made = UndoGroup(number: group.number, actionName: group.actionName, records: openRecords)
        openRecords = []
        frames = []
        if !made.records.isEmpty { push(made, undoing: undoing) }
        context.forgetUndoneUpdates()
    }

    /// Puts a group on the redo stack (after an undo) or the undo stack.
    private func push(_ group: UndoGroup, undoing: Bool) {
        if undoing { redoStack.append(group) } else { undoStack.append(group) }
        trimStacks()
    }

    /// Applies the opposite of a record. Attribute and relationship slots are written
    /// through the context's recorded primitives (one side each, no inverse maintenance:
    /// the other side has its own record); the move in or out of the context registers its
    /// opposite here.
    func revert(_ record: UndoRecord, in context: ManagedObjectContext) throws {
        switch record {
        case .attribute(let object, let index, let old):
            try context.willChange(object, attributeIndex: Int(index))
            object.values[Int(index)] = old
        case .toOne(let object, let index, let old):
            try object.rawSetToOne(Int(index), old)
        case .joined(let object, let index, let member):
            try object.rawRemoveToMany(Int(index), member)
        case .left(let object, let index, let member, let position):
            try object.rawInsertToMany(Int(index), member, at: position)
        case .inserted(let object):
            try context.withdraw(object)
            try append(.deleted(object))
        case .deleted(let object):
            try context.reinstate(object)
            try append(.inserted(object))
        }
    }
}
