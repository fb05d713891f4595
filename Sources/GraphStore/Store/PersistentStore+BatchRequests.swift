/// Batch delete, update and insert at the SQL level (see `Context/BatchRequests.swift`):
/// one statement over the matching rows, no object per row.
///
/// A batch whose rows need nothing beyond themselves runs as one `DELETE`/`UPDATE … WHERE`
/// with the fetch's compiled conditions. One that must follow relationships (delete rules,
/// join tables), collect the rows' IDs for history, or whose predicate joins other tables,
/// first gathers the matching keys in a temporary table (`temp.GS_BATCH`), then runs one
/// statement per table and rule over it.
extension PersistentStore {
    /// The rows a batch request works on.
    enum BatchSelection {
        /// The rows a compiled keys query (`SELECT t0.Z_PK, t0.Z_ENT …`, no residual) selects.
        case query(FetchQuery)
        /// These objects (those whose rows exist).
        case objects([ObjectID])
    }

    /// What a batch statement did: how many rows the request matched, and the IDs of every
    /// row it touched when asked (a delete's cascaded rows included).
    struct BatchOutcome {
        var count = 0
        var ids: [ObjectID] = []
    }

    // MARK: - Delete

    /// Deletes the selected rows of `family`, applying delete rules as Core Data's batch
    /// delete does: cascade deletes the destinations (and theirs), nullify clears the
    /// inverse's foreign key, deny refuses the whole batch (1600) while a destination would
    /// be left, no action leaves the destinations as they are; join-table rows go.
    func batchDelete(_ selection: BatchSelection, family: [EntityMapping], collectsIDs: Bool) throws -> BatchOutcome {
        try registerPredicateFunctionsIfNeeded()
        if case .query(let query) = selection, !query.hasJoins, !collectsIDs, !family.contains(where: needsBatchFollowUp) {
            try connection.prepare("DELETE FROM \(query.mapping.table) AS t0" + (query.conditionsSQL.map { " WHERE " + $0 } ?? ""))
                .execute(query.bindings)
            return BatchOutcome(count: connection.changes)
        }
        var outcome = BatchOutcome(count: try gatherBatchKeys(selection, family: family))
        try addCascadedRows()
        try checkDenyRules()
        try nullifyInverses()
        if collectsIDs { outcome.ids = try batchKeyIDs() }
        try deleteBatchRows()
        return outcome
    }

    /// Whether deleting rows of `mapping` touches anything beyond them.
    private func needsBatchFollowUp(_ mapping: EntityMapping) -> Bool {
        mapping.hasExternalStorage || mapping.relationships.contains { r in
            if case .joinTable = r.storage { return true }
            switch r.relationship.deleteRule {
            case .cascade, .deny: return true
            case .nullify: return r.relationship.inverse != nil
            case .noAction: return false
            }
        }
    }

    /// Fills `temp.GS_BATCH` with the selected rows; returns how many.
    private func gatherBatchKeys(_ selection: BatchSelection, family: [EntityMapping]) throws -> Int {
        try connection.execute("CREATE TEMP TABLE IF NOT EXISTS GS_BATCH (pk INTEGER NOT NULL, ent INTEGER NOT NULL, PRIMARY KEY (pk, ent)) WITHOUT ROWID")
        try connection.execute("DELETE FROM temp.GS_BATCH")
        switch selection {
        case .query(let query):
            try connection.prepare("INSERT OR IGNORE INTO temp.GS_BATCH (pk, ent) " + query.sql).execute(query.bindings)
            return connection.changes
        case .objects(let ids):
            var count = 0
            let numbers = Set(family.map(\.number))
            for id in ids where numbers.contains(id.mapping.number) {
                guard let key = id.primaryKey, let mapping = self.mapping(number: id.mapping.number) else { continue }
                try connection.cachedStatement("INSERT OR IGNORE INTO temp.GS_BATCH (pk, ent) SELECT Z_PK, Z_ENT FROM \(mapping.table) WHERE Z_PK = ? AND Z_ENT = ?")
                    .execute([.integer(key), .integer(Int64(mapping.number))])
                count += connection.changes
            }
            return count
        }
    }

    /// `SELECT pk FROM temp.GS_BATCH WHERE ent IN (…)`: the batch's keys of some entities.
    private func batchKeys(of numbers: [Int]) -> String {
        "SELECT pk FROM temp.GS_BATCH WHERE ent IN (\(numbers.map(String.init).joined(separator: ", ")))"
    }

    /// Adds the destinations of cascading relationships, until none is new.
    private func addCascadedRows() throws {
        var added = true
        while added {
            added = false
            for mapping in allMappings {
                for r in mapping.relationships where r.relationship.deleteRule == .cascade {
                    guard let destination = destinationSQL(r, from: mapping) else { continue }
                    try connection.execute("INSERT OR IGNORE INTO temp.GS_BATCH (pk, ent) \(destination)")
                    if connection.changes > 0 { added = true }
                }
            }
        }
    }

    /// `SELECT d.Z_PK, d.Z_ENT FROM … d WHERE …`: the destinations of `r` from the batch's
    /// rows of `mapping`; nil when the relationship is not stored.
    private func destinationSQL(_ r: RelationshipMapping, from mapping: EntityMapping) -> String? {
        guard let table = destinationTable(of: r) else { return nil }
        let sources = batchKeys(of: [mapping.number])
        switch r.storage {
        case .foreignKey(let column, _, _):
            return "SELECT d.Z_PK, d.Z_ENT FROM \(table) d WHERE d.Z_PK IN (SELECT s.\(column) FROM \(mapping.table) s WHERE s.Z_PK IN (\(sources)))"
        case .inverseForeignKey(let destinationTable, let column, let entityColumn, _):
            let entity = entityColumn.map { " AND d.\($0) = \(mapping.number)" } ?? ""
            return "SELECT d.Z_PK, d.Z_ENT FROM \(destinationTable) d WHERE d.\(column) IN (\(sources))\(entity)"
        case .joinTable(let join):
            return "SELECT d.Z_PK, d.Z_ENT FROM \(table) d WHERE d.Z_PK IN (SELECT j.\(join.destinationColumn) FROM \(join.table) j WHERE j.\(join.sourceColumn) IN (\(sources)))"
        case .notStored:
            return nil
        }
    }

    private func destinationTable(of r: RelationshipMapping) -> String? {
        r.destinationNumbers.first.flatMap { mapping(number: $0)?.table }
    }

    /// Refuses the batch while a Deny relationship of a deleted row still has a destination
    /// the batch does not delete (Core Data's 1600).
    private func checkDenyRules() throws {
        for mapping in allMappings {
            for r in mapping.relationships where r.relationship.deleteRule == .deny {
                guard let destinations = destinationSQL(r, from: mapping) else { continue }
                let kept = "SELECT 1 FROM (\(destinations)) x WHERE NOT EXISTS (SELECT 1 FROM temp.GS_BATCH b WHERE b.pk = x.Z_PK AND b.ent = x.Z_ENT) LIMIT 1"
                if try connection.scalar(kept) != nil {
                    throw BatchRequestError.deniedDelete(entity: mapping.name, relationship: r.relationship.name)
                }
            }
        }
    }

    /// Clears the foreign keys that point back at deleted rows through Nullify
    /// relationships, and removes the deleted rows' join-table rows. Rows that stay are
    /// changed, so their version (`Z_OPT`) goes up.
    private func nullifyInverses() throws {
        for mapping in allMappings {
            for r in mapping.relationships {
                let sources = batchKeys(of: [mapping.number])
                if case .joinTable(let join) = r.storage {
                    try connection.execute("DELETE FROM \(join.table) WHERE \(join.sourceColumn) IN (\(sources))")
                    continue
                }
                guard r.relationship.deleteRule == .nullify, let inverse = inverseStorage(of: r) else { continue }
                try clearForeignKey(inverse, pointingInto: sources, entity: mapping.number)
            }
        }
    }

    /// Where the inverse of `r` keeps its foreign key, when it is a to-one with a column.
    private func inverseStorage(of r: RelationshipMapping) -> (table: String, column: String, entityColumn: String?, orderColumn: String?)? {
        switch r.storage {
        case .inverseForeignKey(let table, let column, let entityColumn, let orderColumn):
            return (table, column, entityColumn, orderColumn)
        case .foreignKey:
            // A one-to-one: the destination's own to-one column points back.
            guard let inverseName = r.relationship.inverse, let number = r.destinationNumbers.first, let destination = mapping(number: number),
                let index = destination.relationshipIndex(of: inverseName),
                case .foreignKey(let column, let entityColumn, let orderColumn) = destination.relationships[index].storage
            else { return nil }
            return (destination.table, column, entityColumn, orderColumn)
        case .joinTable, .notStored:
            return nil
        }
    }

    private func clearForeignKey(
        _ inverse: (table: String, column: String, entityColumn: String?, orderColumn: String?), pointingInto sources: String, entity: Int
    ) throws {
        var assignments = ["\(inverse.column) = NULL", "Z_OPT = Z_OPT + 1"]
        if let entityColumn = inverse.entityColumn { assignments.append("\(entityColumn) = NULL") }
        if let orderColumn = inverse.orderColumn { assignments.append("\(orderColumn) = NULL") }
        let entityCheck = inverse.entityColumn.map { " AND \($0) = \(entity)" } ?? ""
        try connection.execute("UPDATE \(inverse.table) SET \(assignments.joined(separator: ", ")) WHERE \(inverse.column) IN (\(sources))\(entityCheck)")
    }

    /// The IDs of the rows in `temp.GS_BATCH`.
    private func batchKeyIDs() throws -> [ObjectID] {
        try connection.rows("SELECT ent, pk FROM temp.GS_BATCH ORDER BY ent, pk").compactMap { row in
            guard let number = row[0].integer, let key = row[1].integer, let mapping = mapping(number: Int(number)) else { return nil }
            return objectID(mapping, primaryKey: key)
        }
    }

    /// Deletes the rows in `temp.GS_BATCH` from their tables; external data files they
    /// referenced are released when the transaction commits.
    private func deleteBatchRows() throws {
        for mapping in allMappings {
            let keys = batchKeys(of: [mapping.number])
            if mapping.hasExternalStorage {
                for row in try connection.rows(keys) {
                    guard let key = row[0].integer else { continue }
                    for name in try externalReferences(mapping, primaryKey: key) { externalFiles.release(name) }
                }
            }
            try connection.execute("DELETE FROM \(mapping.table) WHERE Z_PK IN (\(keys))")
        }
        try connection.execute("DELETE FROM temp.GS_BATCH")
    }

    // MARK: - Update

    /// Sets `values` (attribute index, value) on the selected rows of `family` and raises
    /// their version, as Core Data's batch update does: no validation, no object.
    func batchUpdate(
        _ selection: BatchSelection, family: [EntityMapping], values: [(index: Int, value: AttributeValue?)], collectsIDs: Bool
    ) throws -> BatchOutcome {
        try registerPredicateFunctionsIfNeeded()
        guard let mapping = family.first else { return BatchOutcome() }
        var assignments: [String] = []
        var bindings: [SQLiteValue] = []
        for (index, value) in values {
            guard let column = mapping.attributes[index].column else { continue }
            assignments.append("\(column) = ?")
            bindings.append(RowCodec.encode(value, as: mapping.attributeTypes[index]))
        }
        assignments.append("Z_OPT = Z_OPT + 1")
        let set = "SET " + assignments.joined(separator: ", ")
        if case .query(let query) = selection, !query.hasJoins {
            let statement = try connection.prepare(
                "UPDATE \(mapping.table) AS t0 \(set)" + (query.conditionsSQL.map { " WHERE " + $0 } ?? "") + (collectsIDs ? " RETURNING Z_PK, Z_ENT" : ""))
            try statement.bind(bindings + query.bindings)
            var outcome = BatchOutcome()
            if collectsIDs {
                while try statement.step() {
                    guard let updated = self.mapping(number: Int(statement.int64(1))) else { continue }
                    outcome.ids.append(objectID(updated, primaryKey: statement.int64(0)))
                }
                outcome.count = outcome.ids.count
            } else {
                _ = try statement.step()
                outcome.count = connection.changes
            }
            return outcome
        }
        var outcome = BatchOutcome(count: try gatherBatchKeys(selection, family: family))
        if collectsIDs { outcome.ids = try batchKeyIDs() }
        try connection.prepare("UPDATE \(mapping.table) \(set) WHERE Z_PK IN (\(batchKeys(of: family.map(\.number))))").execute(bindings)
        try connection.execute("DELETE FROM temp.GS_BATCH")
        return outcome
    }

    // MARK: - Insert

    /// Inserts one row of `mapping` per entry of `rows` (a value per attribute), with keys
    /// from `Z_MAX`; returns their IDs.
    func batchInsert(_ mapping: EntityMapping, rows: [[AttributeValue?]]) throws -> [ObjectID] {
        guard !rows.isEmpty else { return [] }
        let root = try self.mapping(for: mapping.rootName)
        let keys = try allocatePrimaryKeys(root: root, count: rows.count)
        var ids: [ObjectID] = []
        ids.reserveCapacity(rows.count)
        for (key, values) in zip(keys, rows) {
            try insertRow(mapping, primaryKey: key, from: BatchInsertRow(values: values))
            ids.append(objectID(mapping, primaryKey: key))
        }
        return ids
    }
}

/// A batch-inserted row: its attribute values, no relationships.
private struct BatchInsertRow: RowSource {
    let values: [AttributeValue?]

    func value(ofAttribute index: Int) -> AttributeValue? { values[index] }
    func deferredValue(ofAttribute index: Int) -> DeferredValue? { nil }
    func destinationKey(ofRelationship index: Int) -> Int64? { nil }
    func destinationEntity(ofRelationship index: Int) -> Int? { nil }
    func order(inRelationship index: Int) -> Int64? { nil }
}
