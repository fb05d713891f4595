/// A misuse of the undo manager, or an undo or redo that could not be applied.
///
/// Core Data raises Objective-C exceptions for these; here they are thrown, so that a
/// script or a REPL session can report them and carry on.
///
/// ```swift
/// manager.groupsByEvent = false
/// do { try manager.endUndoGrouping() } catch UndoError.endWithoutBegin { … }
/// ```
public enum UndoError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A change was made while grouping by event is off and no group is open.
    case noOpenGroup
    /// `endUndoGrouping()` (or `revertOpenGroup()`) without an open group.
    case endWithoutBegin
    /// `undo()` or `redo()` while nested groups are open (`groupingLevel` is above 1).
    case nestedGroupsOpen(level: Int)
    /// `enableUndoRegistration()` called more often than `disableUndoRegistration()`.
    case registrationNotDisabled
    /// `undo()` or `redo()` called while an undo or redo is running.
    case alreadyPerforming
    /// The manager is not installed on a context (or its context is gone).
    case notInstalled
    /// Applying a group failed; the context was put back as it was before the attempt and
    /// the group stayed where it was.
    case couldNotApply(group: Int, actionName: String, reason: String)

    public var description: String {
        switch self {
        case .noOpenGroup:
            "a change was made with grouping by event off and no undo group open; call beginUndoGrouping() first"
        case .endWithoutBegin:
            "endUndoGrouping() without a matching beginUndoGrouping()"
        case .nestedGroupsOpen(let level):
            "cannot undo or redo while \(level) nested undo groups are open; end them first"
        case .registrationNotDisabled:
            "enableUndoRegistration() without a matching disableUndoRegistration()"
        case .alreadyPerforming:
            "undo or redo called while an undo or redo is running"
        case .notInstalled:
            "the undo manager is not installed on a context"
        case .couldNotApply(let group, let name, let reason):
            "could not apply undo group #\(group)\(name.isEmpty ? "" : " (\(name))"): \(reason); nothing was changed"
        }
    }
}
