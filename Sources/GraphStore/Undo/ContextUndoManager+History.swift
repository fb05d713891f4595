/// Describing the stacks. Records keep only the value before each change; the value after
/// is the next change's "before" of the same slot, or the current value: so the stacks are
/// walked from the present outwards, newest undo change first, next redo change first.
extension ContextUndoManager {
    /// The open group and both stacks, with every change's old and new value.
    public var history: UndoHistory {
        var walk = HistoryWalk()
        var open: UndoGroupSummary?
        if !openRecords.isEmpty {
            open = UndoGroupSummary(number: 0, actionName: openActionName, changes: walk.undone(openRecords))
        }
        let undoGroups = undoStack.reversed().map {
            UndoGroupSummary(number: $0.number, actionName: $0.actionName, changes: walk.undone($0.records))
        }
        var redoWalk = HistoryWalk()
        let redoGroups = (pendingNewGroup ? [] : redoStack).reversed().map {
            UndoGroupSummary(number: $0.number, actionName: $0.actionName, changes: redoWalk.redone($0.records))
        }
        return UndoHistory(openGroup: open, undoGroups: undoGroups, redoGroups: redoGroups)
    }
}

/// The values of slots as the walk has reached them.
private struct HistoryWalk {
    private struct Slot: Hashable {
        var object: ObjectIdentifier
        var index: Int32
        var isAttribute: Bool
    }

    private enum Value {
        case attribute(AttributeSlot)
        case destination(ObjectID?)
    }

    private var values: [Slot: Value] = [:]

    /// Changes of an undo-stack group as they were made (walking newer groups first).
    mutating func undone(_ records: [UndoRecord]) -> [UndoChange] {
        var changes: [UndoChange] = []
        changes.reserveCapacity(records.count)
        for record in records.reversed() {
            switch record {
            case .attribute(let o, let i, let old):
                let new = attribute(o, i)
                values[Slot(object: ObjectIdentifier(o), index: i, isAttribute: true)] = .attribute(old)
                changes.append(.attribute(o.objectID, key: attributeName(o, i), old: shown(o, i, old), new: shown(o, i, new)))
            case .toOne(let o, let i, let old):
                let new = destination(o, i)
                values[Slot(object: ObjectIdentifier(o), index: i, isAttribute: false)] = .destination(old?.objectID)
                changes.append(.relationship(o.objectID, key: relationshipName(o, i), old: old?.objectID, new: new))
            case .joined(let o, let i, let member):
                changes.append(.add(o.objectID, key: relationshipName(o, i), member: member.objectID))
            case .left(let o, let i, let member, _):
                changes.append(.remove(o.objectID, key: relationshipName(o, i), member: member.objectID))
            case .inserted(let o):
                changes.append(.insert(o.objectID))
            case .deleted(let o):
                changes.append(.delete(o.objectID))
            }
        }
        return changes.reversed()
    }

    /// Changes of a redo-stack group as redo will make them (walking the next group first).
    mutating func redone(_ records: [UndoRecord]) -> [UndoChange] {
        var changes: [UndoChange] = []
        changes.reserveCapacity(records.count)
        for record in records.reversed() {
            switch record {
            case .attribute(let o, let i, let target):
                let from = attribute(o, i)
                values[Slot(object: ObjectIdentifier(o), index: i, isAttribute: true)] = .attribute(target)
                changes.append(.attribute(o.objectID, key: attributeName(o, i), old: shown(o, i, from), new: shown(o, i, target)))
            case .toOne(let o, let i, let target):
                let from = destination(o, i)
                values[Slot(object: ObjectIdentifier(o), index: i, isAttribute: false)] = .destination(target?.objectID)
                changes.append(.relationship(o.objectID, key: relationshipName(o, i), old: from, new: target?.objectID))
            case .joined(let o, let i, let member):
                changes.append(.remove(o.objectID, key: relationshipName(o, i), member: member.objectID))
            case .left(let o, let i, let member, _):
                changes.append(.add(o.objectID, key: relationshipName(o, i), member: member.objectID))
            case .inserted(let o):
                changes.append(.delete(o.objectID))
            case .deleted(let o):
                changes.append(.insert(o.objectID))
            }
        }
        return changes
    }

    private func attribute(_ o: ManagedObject, _ i: Int32) -> AttributeSlot {
        if case .attribute(let value) = values[Slot(object: ObjectIdentifier(o), index: i, isAttribute: true)] { return value }
        return o.values[Int(i)]
    }

    /// A slot's value as the history shows it: a stored value that cannot be read as none.
    private func shown(_ o: ManagedObject, _ i: Int32, _ slot: AttributeSlot) -> AttributeValue? {
        (try? o.slotValue(slot, at: Int(i))) ?? nil
    }

    private func destination(_ o: ManagedObject, _ i: Int32) -> ObjectID? {
        if case .destination(let id) = values[Slot(object: ObjectIdentifier(o), index: i, isAttribute: false)] { return id }
        return o.toOne.indices.contains(Int(i)) ? o.toOne[Int(i)].destinationID : nil
    }

    private func attributeName(_ o: ManagedObject, _ i: Int32) -> String { o.mapping.attributeNames[Int(i)] }

    private func relationshipName(_ o: ManagedObject, _ i: Int32) -> String { o.mapping.relationships[Int(i)].relationship.name }
}
