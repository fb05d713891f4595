import GraphStore

/// What a shell keeps between commands that is neither a setting nor an option.
struct SessionState {
    /// Active `.output`/`.once` redirection.
    var redirection: OutputRedirection?
    /// How deeply `.read` scripts are nested, to refuse a script that reads itself forever.
    var scriptDepth = 0
    /// The status `.exit N` asked for.
    var exitStatus: Int32?
    /// The directory relative file names are resolved in; nil for the process's own.
    /// (Tests give each shell its own, since the process's is shared.)
    var directory: String?
    /// The objects the last failed save found in conflict, for `reload` with no object.
    var conflicts: Conflicts?
    /// Notes for the user, shown on the diagnostics once the command's output is out.
    var notes: [String] = []
    /// Whether the session has said that a table was cut to fit the terminal (said once).
    var hasToldAboutFitting = false
    /// Whether the running command was typed at the prompt (not read from a script, even
    /// one `.read` at the prompt): settings commands then confirm what they set.
    var commandIsAtPrompt = false
    /// The pager the running command's standard output goes through, if any.
    var pager: Pager?
    /// The run's one JSON document (`--json-document`), which standard output goes into.
    var document: JSONDocument?
    /// Whether the session has said that the pager cannot be started (said once).
    var hasToldAboutPager = false
    /// The values the running command showed in place of ones it could not read.
    var unreadableValues = UnreadableValues()
    /// Whether any command of the session has given a warning: a value shown in place, a
    /// storage anomaly (for `--strict`).
    var hasWarned = false

    /// Conflicting objects of one context (forgotten when another store is opened).
    struct Conflicts {
        weak var context: ManagedObjectContext?
        var ids: [ObjectID]
    }

    /// The most `.read` scripts that may be nested.
    static let maximumScriptDepth = 16
}
