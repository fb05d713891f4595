/// The SQL a fetch request runs: the statement text, the values bound to its `?`, and
/// the part of the predicate evaluated in memory on the rows it returns.
///
/// ```swift
/// let request = try FetchRequest(entityName: "Word", format: "text BEGINSWITH 'ab' AND length > 5")
/// let generated = try store.sql(for: request)
/// generated.sql        // SELECT t0.Z_PK, … FROM ZWORD t0 WHERE t0.ZTEXT >= ? AND t0.ZTEXT < ?
///                      //   AND (t0.ZTEXT < ? OR GS_BEGINSWITH(t0.ZTEXT, ?, ?)) AND t0.ZLENGTH > ?
/// generated.bindingsDescription  // ['ab', 'ac', 'ab' || char(128), 'ab', 0, 5]
/// ```
public struct GeneratedSQL: Sendable, CustomStringConvertible {
    /// The statement text.
    public var sql: String
    /// The values bound to the statement's parameters, in order.
    public var bindings: [SQLiteValue]
    /// The conjuncts of the predicate SQL cannot express exactly, evaluated in memory on
    /// every row the statement returns; nil when SQL does all the filtering.
    public var inMemoryPredicate: ObjectPredicate?
    /// Why each in-memory conjunct is not in the SQL.
    public var notes: [String]

    /// The values as a list: `["ab", 5, NULL]` (text quoted, blobs summarized).
    public var bindingsDescription: String {
        "[" + bindings.map(GeneratedSQL.describe).joined(separator: ", ") + "]"
    }

    /// `SQL` followed by its bindings and the in-memory part, if any.
    public var description: String {
        var text = sql
        if !bindings.isEmpty { text += "  -- bindings: " + bindingsDescription }
        if let inMemoryPredicate { text += "  -- then in memory: " + inMemoryPredicate.predicateFormat }
        return text
    }

    static func describe(_ value: SQLiteValue) -> String {
        switch value {
        case .text(let text): describe(text: text)
        default: value.description
        }
    }

    /// A text as an SQL expression that yields it: quoted, with control characters (which
    /// a terminal would hide or act on) written as `char(N)`, as sqlite3's `.dump` does:
    /// `'Al' || char(128)`.
    private static func describe(text: String) -> String {
        var parts: [String] = []
        var run = ""
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control {
                if !run.isEmpty { parts.append(quoted(run)) }
                run = ""
                parts.append("char(\(scalar.value))")
            } else {
                run.unicodeScalars.append(scalar)
            }
        }
        if !run.isEmpty || parts.isEmpty { parts.append(quoted(run)) }
        return parts.joined(separator: " || ")
    }

    private static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
}

/// SQLite's plan for a fetch's statement (`EXPLAIN QUERY PLAN`), with the statement.
///
/// ```swift
/// let plan = try store.queryPlan(for: request)
/// print(plan.text)   // SEARCH t0 USING INDEX Z_Word_byText (ZTEXT>? AND ZTEXT<?)
/// ```
public struct QueryPlan: Sendable {
    /// One line of the plan.
    public struct Step: Sendable, Hashable {
        /// The step's id and its parent's (0 at the top).
        public var id: Int
        public var parent: Int
        /// SQLite's description (`SEARCH t0 USING INDEX …`, `SCAN t0`, `CORRELATED SCALAR SUBQUERY 2`).
        public var detail: String
    }

    /// The statement explained.
    public var sql: GeneratedSQL
    /// The steps in SQLite's order.
    public var steps: [Step]

    /// The plan as a tree, as the `sqlite3` shell prints it:
    ///
    ///     QUERY PLAN
    ///     |--SEARCH t0 USING INDEX Z_Word_byText (ZTEXT>? AND ZTEXT<?)
    ///     `--CORRELATED SCALAR SUBQUERY 1
    ///        `--SCAN t1
    public var text: String {
        var lines = ["QUERY PLAN"]
        var children: [Int: [Step]] = [:]
        for step in steps { children[step.parent, default: []].append(step) }
        func draw(_ parent: Int, _ prefix: String) {
            let list = children[parent] ?? []
            for (i, step) in list.enumerated() {
                let last = i == list.count - 1
                lines.append(prefix + (last ? "`--" : "|--") + step.detail)
                if step.id != parent { draw(step.id, prefix + (last ? "   " : "|  ")) }
            }
        }
        draw(0, "")
        return lines.joined(separator: "\n")
    }
}
