/// SQL typed at the prompt without `sql` in front, as a sqlite3 or psql user types it: a
/// command whose first word is `SELECT`, `WITH`, `VALUES`, `PRAGMA`, `ATTACH` or `DETACH`,
/// or `EXPLAIN` followed by `QUERY` (`EXPLAIN QUERY PLAN …`), `SELECT`, `WITH` or `VALUES`
/// (`explain fetch …` is the shell's own command). It runs as `sql` runs it, reading only, and, as in sqlite3, it
/// ends at its `;` (or at the end of the input), however many lines it takes.
///
/// ```swift
/// BareSQL.starts("select", nil)          // true
/// BareSQL.starts("explain", "query")     // true: EXPLAIN QUERY PLAN …
/// BareSQL.starts("explain", "fetch")     // false: the shell's explain
/// ```
enum BareSQL {
    /// The first words that make a command SQL by themselves (lower case).
    static let verbs: Set<String> = ["select", "with", "values", "pragma", "attach", "detach"]
    /// `EXPLAIN` is SQL when an SQL query follows it; else it is the shell's `explain`.
    static let explain = "explain"
    /// The words after `explain` that make it SQL.
    static let explainedSQL: Set<String> = ["query", "select", "with", "values"]

    /// Whether a command starting with `first` (then `second`, nil when there is none) is SQL.
    static func starts(_ first: String, _ second: String?) -> Bool {
        let verb = first.lowercased()
        if verbs.contains(verb) { return true }
        guard verb == explain, let second else { return false }
        return explainedSQL.contains(second.lowercased())
    }
}
