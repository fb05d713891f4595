/// What an undo manager holds, described for display: the open group and both stacks,
/// next first, each group with its number, action name and changes (old → new).
///
/// ```swift
/// let history = context.undoManager?.history
/// for group in history?.undoGroups ?? [] {
///     print("#\(group.number) \(group.actionName): \(group.changes.count) changes")
/// }
/// ```
public struct UndoHistory: Sendable, Hashable {
    /// The group being registered (changes since the last boundary), if it has changes.
    public var openGroup: UndoGroupSummary?
    /// The groups ``ContextUndoManager/undo()`` takes back, next first; their changes are
    /// listed as they were made.
    public var undoGroups: [UndoGroupSummary]
    /// The groups ``ContextUndoManager/redo()`` applies, next first; their changes are
    /// listed as redo will make them.
    public var redoGroups: [UndoGroupSummary]
}

/// One undo group as ``UndoHistory`` lists it.
///
/// ```swift
/// if let next = undo.history.undoGroups.first {
///     print("#\(next.number) \(next.actionName)")       // #3 add Dune
///     next.changes.forEach { print("  \($0)") }          //   insert Book/t1 …
/// }
/// ```
public struct UndoGroupSummary: Sendable, Hashable {
    /// The group's number (kept when it moves between the stacks); 0 for the open group.
    public var number: Int
    /// The action name ("" if none was set).
    public var actionName: String
    /// The changes, in the order they are (or were) made.
    public var changes: [UndoChange]
}
