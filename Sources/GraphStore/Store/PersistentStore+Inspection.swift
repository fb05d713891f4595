/// The read-only inspection API: what the store holds, read from the store itself (never
/// recomputed from the model), for tools that show a store's layout (the REPL's `.schema`)
/// and an app's diagnostics.
///
/// - ``schema``: every table with its columns and their declared types, every index with
///   its SQL, every trigger, as the file declares them;
/// - ``table(of:)``, ``indexes(of:)``: an entity's table and the indexes on it;
/// - ``index(for:of:)``: the index the store keeps for one of an entity's fetch indexes;
/// - ``sql(for:resultType:)`` and ``queryPlan(for:resultType:)``: the SQL a fetch request
///   runs, and SQLite's plan for it.
///
/// ```swift
/// let book = try store.mapping(for: "Book")
/// store.table(of: book)?.columns.map(\.name)                 // ["Z_PK", "Z_ENT", "Z_OPT", "ZPRICE", "ZTITLE", …]
/// store.indexes(of: book).map(\.name)                         // ["ZBOOK_ZCATEGORY_INDEX", "Z_Book_byTitle"]
/// store.index(for: book.entity.fetchIndexes[0], of: book)?.sql // "CREATE INDEX Z_Book_byTitle ON ZBOOK (ZTITLE COLLATE BINARY ASC)"
/// ```
extension PersistentStore {
    /// The table that holds an entity's rows (its inheritance root's), as the store
    /// declares it; nil when the store has no such table.
    public func table(of mapping: EntityMapping) -> DatabaseSchema.Table? {
        schema.table(mapping.table)
    }

    /// The indexes on an entity's table, in the order the store declares them.
    public func indexes(of mapping: EntityMapping) -> [DatabaseSchema.Index] {
        schema.indexes.filter { $0.table.equalsSQLIdentifier(mapping.table) }
    }

    /// The index the store keeps for a fetch index of an entity (Core Data names it
    /// `Z_<Entity>_<index>`; after a renaming migration the entity's older name may still be
    /// in it); nil when the store has no such index.
    public func index(for fetchIndex: FetchIndex, of mapping: EntityMapping) -> DatabaseSchema.Index? {
        let recordedName = primaryKeyEntries[mapping.number]?.name
        let names = [mapping.name, recordedName].compactMap { $0 }.map { SchemaWriter.fetchIndexName(entity: $0, index: fetchIndex.name) }
        let onTable = indexes(of: mapping)
        for name in names {
            if let index = onTable.first(where: { $0.name.equalsSQLIdentifier(name) }) { return index }
        }
        return nil
    }

    /// SQLite's plan (`EXPLAIN QUERY PLAN`) for the statement of `generated` (see
    /// ``queryPlan(for:resultType:)``, in `Context/PersistentStore+FetchRequests.swift`).
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
