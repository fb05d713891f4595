import GraphStore

/// How the REPL words a save that met conflicts (133020): what happened to each object,
/// both sides of each differing value, and a hint naming the way out.
enum ConflictReport {
    /// The error that ends a `save` whose objects were changed or deleted by someone else.
    static func saveFailure(_ conflicts: [SaveConflict]) -> ShellError {
        let what =
            conflicts.count == 1
            ? conflicts[0].summary
            : "\(conflicts.count) objects were changed or deleted by someone else since they were read"
        var lines = ["save failed (133020): \(what); nothing was written and the changes are still pending"]
        for conflict in conflicts {
            if conflicts.count > 1 { lines.append("  \(conflict.summary)") }
            let indent = conflicts.count > 1 ? "    " : "  "
            lines += conflict.differences.map { indent + $0.description }
        }
        lines.append(hint(conflicts))
        return ShellError(lines.joined(separator: "\n"))
    }

    /// `Book/p1`, as object commands take it.
    static func name(_ id: ObjectID) -> String {
        "\(id.entityName)/\(id.primaryKey.map { "p\($0)" } ?? "new")"
    }

    /// What to type next: reload (always possible), or save --force (not for a changed
    /// object whose row is gone: there is nothing left to write over).
    private static func hint(_ conflicts: [SaveConflict]) -> String {
        let names = conflicts.map { name($0.objectID) }.joined(separator: " ")
        let overwritable = conflicts.contains { !($0.rowIsGone && !$0.isDeletion) }
        let blocked = conflicts.filter { $0.rowIsGone && !$0.isDeletion }
        guard overwritable else {
            return "hint: reload \(names) to drop your changes to \(conflicts.count == 1 ? "an object" : "objects") someone else deleted"
        }
        var hint = "hint: reload \(names) to take the stored values, or save --force to keep yours"
        if !blocked.isEmpty {
            hint += " (a deleted row cannot be overwritten: reload \(blocked.map { name($0.objectID) }.joined(separator: " ")) first)"
        }
        return hint
    }
}
