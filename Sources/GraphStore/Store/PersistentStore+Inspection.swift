/// The read-only inspection of compiled fetches: SQLite's plan for a query's statement.
/// (The public entry points take a ``FetchRequest``: see
/// `Context/PersistentStore+FetchRequests.swift`.)
extension PersistentStore {
    /// SQLite's plan (`EXPLAIN QUERY PLAN`) for the statement of `generated`.
    func queryPlanSteps(of generated: GeneratedSQL) throws -> [QueryPlan.Step] {
        var steps: [QueryPlan.Step] = []
        try forEachRow(sql: "EXPLAIN QUERY PLAN " + generated.sql, bindings: generated.bindings) { statement in
            steps.append(QueryPlan.Step(id: Int(statement.int64(0)), parent: Int(statement.int64(1)), detail: statement.string(3) ?? ""))
            return true
        }
        return steps
    }
}

extension GeneratedSQL {
    /// What a compiled query runs: its statement, bound values, and in-memory part.
    init(_ query: FetchQuery) {
        self.init(sql: query.sql, bindings: query.bindings, inMemoryPredicate: query.residual, notes: query.notes)
    }
}
