/// A closed group of records on the undo or redo stack, in the order they were registered.
struct UndoGroup {
    /// The group's number, kept when it moves between the stacks.
    var number: Int
    /// The action name (`setActionName(_:)`), empty if none was given.
    var actionName: String
    var records: [UndoRecord]
}
