import GraphStore

/// What the REPL keeps for undo between command lines: the context it installed an undo
/// manager on, an open `begin … end` group, the journal being recorded, and whether a
/// replay or dry run is running.
final class ShellUndoState {
    /// The context the state belongs to (another `.open` starts afresh).
    weak var context: ManagedObjectContext?
    /// Whether the state has belonged to a context: `.open` frees the previous one, so the
    /// weak reference alone cannot tell a first store from a second.
    var hasHadContext = false
    /// The open `begin … end` group.
    var block: Block?
    /// The journal being recorded (`.journal FILE`).
    var journal: JournalWriter?
    /// Set while `replay` runs (replays do not nest).
    var isReplaying = false
    /// Set during `replay --dry-run`: nothing is journaled.
    var isDryRun = false

    /// An open `begin [NAME] … end` group (or a replayed group).
    struct Block {
        /// The name given to `begin`, if any (else the group is named by its commands).
        var name: String?
        /// The command lines that ran in it, for the journal.
        var lines: [String] = []

        /// The action name of the group: the given name, or its commands.
        var actionName: String { name ?? lines.joined(separator: "; ") }
    }

    /// Commands that change the state without making an undo group, journaled as they are.
    static let journaledCommands: Set<String> = ["save", "rollback", "reload"]
    /// Commands that manage undo groups themselves: the per-line grouping leaves them alone.
    static let groupCommands: Set<String> = ["undo", "redo", "begin", "end", "replay", ".undo", ".journal"]
}
