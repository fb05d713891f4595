/// Core Data's undo manager for a ``ManagedObjectContext``: every insert, delete,
/// attribute change and relationship change (each side of it) is registered, in groups
/// that ``undo()`` takes back and ``redo()`` applies again.
///
/// Set one on a context to start registering (a context has none by default, and then
/// changes cost nothing extra). Grouping by event is on by default: the changes between
/// two calls of ``endEvent()`` form one group. Linux programs have no run loop closing
/// the group for them, so they mark the boundary themselves (the REPL does after every
/// command line). With ``groupsByEvent`` off, ``beginUndoGrouping()`` and
/// ``endUndoGrouping()`` make the groups.
///
/// ```swift
/// let undo = ContextUndoManager()
/// context.undoManager = undo
/// let book = try context.insert("Book")
/// try book.set("title", "Dune")
/// undo.setActionName("add Dune")
/// undo.endEvent()                 // one group: the insert and the title
/// try undo.undo()                 // the book is gone again
/// try undo.redo()                 // and back, with its title
/// ```
///
/// Named `ContextUndoManager` so that it does not collide with Foundation's `UndoManager`.
public final class ContextUndoManager {
    /// Whether changes between two ``endEvent()`` calls form a group by themselves
    /// (default true). When false, changes need an open ``beginUndoGrouping()`` group.
    public var groupsByEvent = true
    /// How many groups the undo stack (and the redo stack) keeps; the oldest roll off.
    /// 0, the default, keeps all.
    public var levelsOfUndo = 0 {
        didSet {
            if levelsOfUndo < 0 { levelsOfUndo = 0 }
            trimStacks()
        }
    }
    /// Whether ``undo()`` is running (changes then register as redo).
    public internal(set) var isUndoing = false
    /// Whether ``redo()`` is running.
    public internal(set) var isRedoing = false
    /// The number of the most recently closed group; groups are numbered from 1 and keep
    /// their number when they move between the stacks.
    public private(set) var lastGroupNumber = 0

    /// The context the manager is installed on (weak: the context owns the manager).
    weak var context: ManagedObjectContext?
    /// Where the manager's observer sits in the context's `changeObservers`.
    var observerPosition: Int?
    var undoStack: [UndoGroup] = []
    var redoStack: [UndoGroup] = []
    /// The records of the open group (nested groups are folded into it, as they are undone
    /// together); `frames` says where each open nesting level starts.
    var openRecords: [UndoRecord] = []
    var frames: [Frame] = []
    var openActionName = ""
    var disableCount = 0

    struct Frame {
        /// The index in `openRecords` where the level starts.
        var start: Int
        /// Opened by a change with no group open (grouping by event), closed by `endEvent()`.
        var automatic: Bool
    }

    /// Creates a manager; set it as a context's ``ManagedObjectContext/undoManager``.
    public init() {}

    // Withdrawn objects on the stacks may hold each other (a category and its books
    // inserted together, then undone): cut those cycles when the stacks go.
    deinit {
        releaseDetachedObjects(in: undoStack + redoStack + [openGroup], keeping: [])
    }

    // MARK: - State

    /// The number of open groups (0: none).
    public var groupingLevel: Int { frames.count }
    /// Whether there is something to undo (a closed group, or changes in the open group).
    public var canUndo: Bool { !undoStack.isEmpty || (!openRecords.isEmpty && frames.count == 1) }
    /// Whether there is something to redo (not once new changes are registered: their
    /// group will replace the redo stack when it closes).
    public var canRedo: Bool { !redoStack.isEmpty && !pendingNewGroup }
    /// The number of groups on the undo stack (not counting the open one).
    public var undoGroupCount: Int { undoStack.count }
    /// The number of groups on the redo stack.
    public var redoGroupCount: Int { pendingNewGroup ? 0 : redoStack.count }
    /// The number of the group ``undo()`` would take back (nil for none, 0 for the open group).
    public var undoGroupNumber: Int? { !openRecords.isEmpty && frames.count == 1 ? 0 : undoStack.last?.number }
    /// The number of the group ``redo()`` would apply.
    public var redoGroupNumber: Int? { pendingNewGroup ? nil : redoStack.last?.number }

    /// Whether registered changes (not an undo or redo in progress) are waiting for their
    /// group to close, which will clear the redo stack.
    var pendingNewGroup: Bool { !openRecords.isEmpty && !isUndoing && !isRedoing }
    /// The number of changes registered in the open group.
    public var openChangeCount: Int { openRecords.count }

    /// The name of the group ``undo()`` would take back ("" if unnamed), or nil.
    public var undoActionName: String? {
        if !openRecords.isEmpty, frames.count == 1 { return openActionName }
        return undoStack.last?.actionName
    }

    /// The name of the group ``redo()`` would apply ("" if unnamed), or nil.
    public var redoActionName: String? { pendingNewGroup ? nil : redoStack.last?.actionName }

    /// Names the open group, or the last closed one when no group is open.
    public func setActionName(_ name: String) {
        if !frames.isEmpty {
            openActionName = name
        } else if !undoStack.isEmpty {
            undoStack[undoStack.count - 1].actionName = name
        }
    }

    // MARK: - Registration

    /// Whether changes are being registered.
    public var isUndoRegistrationEnabled: Bool { disableCount == 0 }

    /// Stops registering changes until a matching ``enableUndoRegistration()`` (calls nest
    /// and count, as in Core Data).
    public func disableUndoRegistration() { disableCount += 1 }

    /// Undoes one ``disableUndoRegistration()``; calling it more often is an error.
    public func enableUndoRegistration() throws(UndoError) {
        guard disableCount > 0 else { throw .registrationNotDisabled }
        disableCount -= 1
    }

    /// Clears both stacks and the changes of open groups (the groups stay open), and turns
    /// registration back on. ``ManagedObjectContext/rollback()`` and
    /// ``ManagedObjectContext/reset()`` call it, as Core Data's do.
    public func removeAllActions() {
        let dropped = undoStack + redoStack + [openGroup]
        undoStack = []
        redoStack = []
        openRecords = []
        for i in frames.indices { frames[i].start = 0 }
        disableCount = 0
        releaseDetachedObjects(in: dropped, keeping: [])
    }

    /// Called by the context before every recorded change.
    func register(_ object: ManagedObject, _ kind: ManagedObjectContext.ChangeKind) throws {
        guard disableCount == 0 else { return }
        let record: UndoRecord
        switch kind {
        case .attribute(let index):
            record = .attribute(object, index: Int32(index), old: object.values[index])
        case .relationship(let index):
            record = .toOne(object, index: Int32(index), old: try object.destination(at: index))
        case .toManyInsertion(let index, let member):
            record = .joined(object, index: Int32(index), member: member)
        case .toManyRemoval(let index, let member):
            let position = object.members(index).firstIndex(of: ObjectRef(member)) ?? Int.max
            record = .left(object, index: Int32(index), member: member, position: position)
        case .insert:
            record = .inserted(object)
        case .delete:
            record = .deleted(object)
        }
        try append(record)
    }

    /// Adds a record to the open group, opening one by event if none is open.
    func append(_ record: UndoRecord) throws(UndoError) {
        guard disableCount == 0 else { return }
        if frames.isEmpty {
            guard groupsByEvent else { throw .noOpenGroup }
            frames.append(Frame(start: 0, automatic: true))
        }
        openRecords.append(record)
    }

    // MARK: - Grouping

    /// Opens a group; groups nest, and a nested group is undone with the group it is in.
    public func beginUndoGrouping() {
        frames.append(Frame(start: openRecords.count, automatic: false))
    }

    /// Closes the innermost open group. Closing the outermost one puts its changes on the
    /// undo stack as one group (a group without changes is dropped).
    public func endUndoGrouping() throws(UndoError) {
        guard frames.popLast() != nil else { throw .endWithoutBegin }
        if frames.isEmpty { closeGroup() }
    }

    /// Marks the end of an event: closes the group that grouping by event opened. A group
    /// opened with ``beginUndoGrouping()`` stays open (changes keep going into it).
    public func endEvent() {
        guard frames.count == 1, frames[0].automatic else { return }
        frames = []
        closeGroup()
    }

    /// Puts the open records on the undo stack as one group.
    private func closeGroup() {
        let records = openRecords
        let name = openActionName
        openRecords = []
        openActionName = ""
        guard !records.isEmpty else { return }
        // A new group makes the undone ones unreachable, as in Core Data. Clearing here
        // rather than at the first change means that an open group taken back with
        // `revertOpenGroup()` (a failed command, a dry run) leaves the redo stack alone;
        // until then the redo stack reads as empty (see `pendingNewGroup`).
        if !redoStack.isEmpty {
            let dropped = redoStack
            redoStack = []
            releaseDetachedObjects(in: dropped, keeping: undoStack + [UndoGroup(number: 0, actionName: "", records: records)])
        }
        lastGroupNumber += 1
        undoStack.append(UndoGroup(number: lastGroupNumber, actionName: name, records: records))
        trimStacks()
    }

    /// Drops the oldest groups of each stack beyond ``levelsOfUndo``.
    func trimStacks() {
        guard levelsOfUndo > 0, undoStack.count > levelsOfUndo || redoStack.count > levelsOfUndo else { return }
        var dropped: [UndoGroup] = []
        if undoStack.count > levelsOfUndo {
            dropped += undoStack.prefix(undoStack.count - levelsOfUndo)
            undoStack.removeFirst(undoStack.count - levelsOfUndo)
        }
        if redoStack.count > levelsOfUndo {
            dropped += redoStack.prefix(redoStack.count - levelsOfUndo)
            redoStack.removeFirst(redoStack.count - levelsOfUndo)
        }
        releaseDetachedObjects(in: dropped, keeping: undoStack + redoStack + [openGroup])
    }

    /// The open records as a group (for scans that must see them).
    var openGroup: UndoGroup { UndoGroup(number: 0, actionName: openActionName, records: openRecords) }

    /// Breaks the relationship cycles of objects that only dropped groups still knew:
    /// objects out of the context (an undone insert, a saved delete) that no kept group
    /// can bring back. Costs a scan of the kept groups, and only when such objects exist.
    func releaseDetachedObjects(in dropped: [UndoGroup], keeping kept: [UndoGroup]) {
        var detached: [ObjectIdentifier: ManagedObject] = [:]
        for group in dropped {
            for record in group.records {
                record.forEachObject { object in
                    if object.managedObjectContext == nil { detached[ObjectIdentifier(object)] = object }
                }
            }
        }
        guard !detached.isEmpty else { return }
        for group in kept {
            for record in group.records {
                record.forEachObject { detached.removeValue(forKey: ObjectIdentifier($0)) }
            }
        }
        for object in detached.values { object.dropRelationshipsAfterUndo() }
    }
}

extension ContextUndoManager {
    /// The stacks and the open group as they were at one moment: a save keeps them, so that
    /// a failed save takes back what its `willSave` hooks registered (see `SaveRestorePoint`).
    struct SavedState {
        fileprivate let undoStack: [UndoGroup]
        fileprivate let redoStack: [UndoGroup]
        fileprivate let openRecords: [UndoRecord]
        fileprivate let frames: [Frame]
        fileprivate let openActionName: String
        fileprivate let lastGroupNumber: Int
    }

    /// The state now (the arrays are shared, not copied, until something changes them).
    func savedState() -> SavedState {
        SavedState(
            undoStack: undoStack, redoStack: redoStack, openRecords: openRecords, frames: frames,
            openActionName: openActionName, lastGroupNumber: lastGroupNumber)
    }

    /// Puts back a state kept by ``savedState()``.
    func restore(_ state: SavedState) {
        undoStack = state.undoStack
        redoStack = state.redoStack
        openRecords = state.openRecords
        frames = state.frames
        openActionName = state.openActionName
        lastGroupNumber = state.lastGroupNumber
    }
}
