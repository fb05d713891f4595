/// Writing rows: key allocation, inserts, updates with optimistic locking, deletes, and
/// join-table membership. Every call is meant to run inside ``transaction(_:)``.
extension PersistentStore {
    /// Runs `body` in one SQLite transaction (`BEGIN IMMEDIATE` … `COMMIT`).
    ///
    /// External data files follow the transaction (see ``ExternalDataFiles``): those it
    /// wrote are removed when it rolls back, those it replaced or deleted only once it has
    /// committed; if COMMIT itself fails, nothing is removed (an orphan file is harmless, a
    /// reference to a removed file is not).
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        guard !isReadOnly else { throw StoreError.readOnly(path: path) }
        var bodyFinished = false
        do {
            let result = try connection.transaction {
                // Checked with SQLite's write lock held, before anything is written.
                try checkStillInPlace()
                let result = try body()
                bodyFinished = true
                return result
            }
            externalFiles.committed()
            return result
        } catch {
            if bodyFinished { externalFiles.forget() } else { externalFiles.rolledBack() }
            throw error
        }
    }

    /// Runs `body` inside the transaction under way as a part undone alone if it throws:
    /// the rows it wrote go back, and so do the external data files (those it wrote are
    /// removed, those it released are kept), while the transaction goes on. A save makes
    /// each attempt one: when an attempt meets conflicts, its merge policy resolves them and
    /// the save tries again.
    func savepoint<T>(_ body: () throws -> T) throws -> T {
        precondition(connection.isInTransaction, "savepoint(_:) runs inside transaction(_:)")
        let mark = externalFiles.mark
        do {
            return try connection.transaction(body)
        } catch {
            externalFiles.rolledBack(to: mark)
            throw error
        }
    }

    /// Hands out `count` new primary keys for an inheritance root, from its `Z_MAX`, and
    /// records the new maximum. A `Z_MAX` below the largest stored key (seen in the wild)
    /// is repaired by starting above the largest key. `count` must be at least 1.
    public func allocatePrimaryKeys(root: EntityMapping, count: Int) throws -> ClosedRange<Int64> {
        precondition(count >= 1, "allocatePrimaryKeys needs a count of at least 1")
        guard var record = primaryKeyEntries[root.number] else { throw StoreError.unknownEntity(root.name) }
        // Read again (another program may have written since the store opened), checked.
        var stored = record.max
        if let value = try connection.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [.integer(Int64(root.number))]), value != .null {
            guard let number = value.integer else {
                throw StoreError.malformedInteger(
                    path: path, table: "Z_PRIMARYKEY", row: "Z_ENT \(root.number) (\(record.name))", column: "Z_MAX", found: value.shownAsFound)
            }
            stored = number
        }
        let top = try connection.scalar("SELECT MAX(\(root.keys.integer("Z_PK"))) FROM \(root.table)")?.integer ?? 0
        guard max(stored, top) <= Int64.max - Int64(count) else {
            throw StoreError.malformedStore(path: path, reason: "Z_PRIMARYKEY row Z_ENT \(root.number) (\(record.name)): Z_MAX \(stored) leaves no room for \(count) new keys")
        }
        let start = max(stored, top) + 1
        let end = start + (Int64(count) - 1)  // start + count would overflow at the top of Int64
        try connection.cachedStatement("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?")
            .execute([.integer(end), .integer(Int64(root.number))])
        record.max = end
        primaryKeyEntries[root.number] = record
        return start...end
    }

    /// Raises an inheritance root's `Z_MAX` to `key` if it is lower, so that keys handed
    /// out later start above a key a new object asked for.
    func reservePrimaryKeys(root: EntityMapping, through key: Int64) throws {
        try connection.cachedStatement("UPDATE Z_PRIMARYKEY SET Z_MAX = max(coalesce(Z_MAX, 0), ?) WHERE Z_ENT = ?")
            .execute([.integer(key), .integer(Int64(root.number))])
        if var record = primaryKeyEntries[root.number] {
            record.max = max(record.max, key)
            primaryKeyEntries[root.number] = record
        }
    }

    /// Whether an inheritance root's table has a row with this primary key.
    func hasRow(root: EntityMapping, primaryKey: Int64) throws -> Bool {
        try connection.scalar("SELECT 1 FROM \(root.table) WHERE Z_PK = ?", [.integer(primaryKey)]) != nil
    }

    /// Inserts a row of one of this store's entities (``StoredRow/mapping``), with key
    /// ``StoredRow/primaryKey``: its attributes and to-ones as the row holds them, at
    /// version 1.
    ///
    /// ```swift
    /// try store.transaction {
    ///     guard var copy = try store.row(of: book, primaryKey: 4) else { return }
    ///     copy.primaryKey = try store.allocatePrimaryKeys(root: book, count: 1).lowerBound
    ///     try store.insertRow(copy)
    /// }
    /// ```
    public func insertRow(_ row: StoredRow) throws {
        try insertRow(row.mapping, primaryKey: row.primaryKey, from: row)
    }

    /// Inserts a new row of `mapping` with key `primaryKey` at version 1, its columns taken
    /// from `source` (a context's save hands its objects over as they are).
    func insertRow(_ mapping: EntityMapping, primaryKey: Int64, from source: some RowSource) throws {
        let statement = try statement(mapping.insertSQL, for: mapping, in: insertStatements)
        // Every parameter is bound below, so the earlier bindings need not be cleared.
        defer { statement.rewind() }
        statement.bind(primaryKey, at: 1)
        statement.bind(Int64(mapping.number), at: 2)
        statement.bind(1, at: 3)
        try bindRow(mapping, from: source, to: statement, at: 4)
        try statement.step()
    }

    /// Writes a stored row's attributes and to-ones over its row and bumps its version,
    /// failing with ``StoreError/optimisticLockingFailure(_:)`` if the row's version is no
    /// longer `version` (someone else changed or deleted it).
    public func updateRow(_ row: StoredRow, version: Int64) throws {
        guard try updateRow(row.mapping, primaryKey: row.primaryKey, version: version, from: row) else {
            throw try versionConflict(row.mapping, primaryKey: row.primaryKey, expectedVersion: version)
        }
    }

    /// Updates a row from `source` and bumps its version if the row's version is still
    /// `version`; answers false, having changed nothing, otherwise: a context describes (or
    /// overwrites) the conflict itself.
    func updateRow(_ mapping: EntityMapping, primaryKey: Int64, version: Int64, from source: some RowSource) throws -> Bool {
        let before = mapping.hasExternalStorage ? try externalReferences(mapping, primaryKey: primaryKey) : nil
        let statement = try statement(mapping.updateSQL, for: mapping, in: updateStatements)
        defer { statement.rewind() }
        statement.bind(version + 1, at: 1)
        try bindRow(mapping, from: source, to: statement, at: 2)
        let next = Int32(mapping.rowColumns.count + 2)
        statement.bind(primaryKey, at: next)
        statement.bind(version, at: next + 1)
        try statement.step()
        guard connection.changes == 1 else { return false }
        if let before { try releaseExternalFiles(before, keeping: try externalReferences(mapping, primaryKey: primaryKey)) }
        return true
    }

    /// The prepared statement of an entity from a per-entity cache, indexed by entity
    /// number (no SQL text or key is hashed per row on the save path). Every caller rewinds
    /// the statement after its one use and binds every parameter before the next.
    private func statement(_ sql: String, for mapping: EntityMapping, in cache: UncheckedCell<ByEntityNumber<Statement>>) throws -> Statement {
        if let statement = cache.value[mapping.number] { return statement }
        let statement = try connection.prepare(sql)
        cache.value[mapping.number] = statement
        return statement
    }

    /// Deletes a row, failing with ``StoreError/optimisticLockingFailure(_:)`` if its
    /// version is no longer `version`.
    public func deleteRow(_ mapping: EntityMapping, primaryKey: Int64, version: Int64) throws {
        guard try deleteRow(mapping, primaryKey: primaryKey, checking: version) else {
            throw try versionConflict(mapping, primaryKey: primaryKey, expectedVersion: version)
        }
    }

    /// Deletes a row if its version is `version`; false, having deleted nothing, otherwise.
    func deleteRow(_ mapping: EntityMapping, primaryKey: Int64, checking version: Int64) throws -> Bool {
        let before = mapping.hasExternalStorage ? try externalReferences(mapping, primaryKey: primaryKey) : nil
        try connection.cachedStatement("DELETE FROM \(mapping.table) WHERE \(mapping.keys.integer("Z_PK")) = ? AND \(mapping.keys.integer("Z_OPT")) = ?")
            .execute([.integer(primaryKey), .integer(version)])
        guard connection.changes == 1 else { return false }
        if let before { try releaseExternalFiles(before, keeping: []) }
        return true
    }

    /// The names of the external data files a row references.
    func externalReferences(_ mapping: EntityMapping, primaryKey: Int64) throws -> Set<String> {
        let columns = mapping.attributes.indices.filter { mapping.externalStorage[$0] }.compactMap { mapping.attributes[$0].column }
        guard !columns.isEmpty,
            let row = try connection.rows("SELECT \(columns.joined(separator: ", ")) FROM \(mapping.table) WHERE \(mapping.keys.integer("Z_PK")) = ?", [.integer(primaryKey)]).first
        else { return [] }
        return Set(row.compactMap { value in
            guard case .blob(let blob) = value, case .deferred(let deferred) = ExternalBinaryData.decode(blob, as: .binaryData, in: supportFolder) else { return nil }
            return deferred.externalReference?.name
        })
    }

    /// Files a row referenced and no longer does: removed once the transaction commits.
    private func releaseExternalFiles(_ before: Set<String>, keeping after: Set<String>) throws {
        for name in before.subtracting(after) { externalFiles.release(name) }
    }

    /// The stored version (`Z_OPT`) of a row, or nil when there is no such row.
    public func storedVersion(of mapping: EntityMapping, primaryKey: Int64) throws -> Int64? {
        try connection.scalar("SELECT Z_OPT FROM \(mapping.table) WHERE \(mapping.keys.integer("Z_PK")) = ?", [.integer(primaryKey)])?.integer
    }

    /// The error for a row whose version was not the expected one: the row's object and
    /// both versions (a context's save says more: the values on each side).
    private func versionConflict(_ mapping: EntityMapping, primaryKey: Int64, expectedVersion: Int64) throws -> StoreError {
        let conflict = SaveConflict(
            objectID: objectID(mapping, primaryKey: primaryKey), expectedVersion: expectedVersion,
            storedVersion: try storedVersion(of: mapping, primaryKey: primaryKey), differences: [])
        return .optimisticLockingFailure([conflict])
    }

    /// Replaces the join rows of one source object with `members` (in order).
    /// `inverseOrders` gives, per member, the source's position in the member's ordered
    /// inverse, when that side is ordered; nil keeps the position stored for that pair (the
    /// member's side was not loaded, so it cannot have been reordered).
    public func replaceJoinRows(_ join: JoinTable, source: Int64, members: [Int64], inverseOrders: [Int64?]) throws {
        var storedInverseOrders: [Int64: Int64] = [:]
        if let inverseOrder = join.inverseOrderColumn, inverseOrders.contains(nil) {
            let statement = try connection.cachedStatement(
                "SELECT \(join.destinationColumn), \(inverseOrder) FROM \(join.table) WHERE \(join.sourceColumn) = ? AND \(inverseOrder) IS NOT NULL")
            defer { statement.reset() }
            statement.bind(source, at: 1)
            while try statement.step() { storedInverseOrders[statement.int64(0)] = statement.int64(1) }
        }
        try connection.cachedStatement("DELETE FROM \(join.table) WHERE \(join.sourceColumn) = ?").execute([.integer(source)])
        var columns = [join.sourceColumn, join.destinationColumn]
        if let order = join.orderColumn { columns.append(order) }
        if let inverseOrder = join.inverseOrderColumn { columns.append(inverseOrder) }
        let sql = "INSERT OR REPLACE INTO \(join.table) (\(columns.joined(separator: ", "))) VALUES (\(placeholders(columns.count)))"
        let statement = try connection.cachedStatement(sql)
        for (i, member) in members.enumerated() {
            var values: [SQLiteValue] = [.integer(source), .integer(member)]
            if join.orderColumn != nil { values.append(.integer(PersistentStore.orderValue(at: i))) }
            if join.inverseOrderColumn != nil {
                values.append((inverseOrders[i] ?? storedInverseOrders[member]).map(SQLiteValue.integer) ?? .null)
            }
            try statement.execute(values)
        }
    }

    /// Removes every join row that names this object on either side (when it is deleted).
    public func removeJoinRows(_ join: JoinTable, object: Int64) throws {
        try connection.cachedStatement("DELETE FROM \(join.table) WHERE \(join.sourceColumn) = ?").execute([.integer(object)])
    }

    /// The `Z_FOK_` value of position `index` in an ordered relationship: Core Data writes
    /// fresh sequences as 2048, 3072, 4096, ...
    public static func orderValue(at index: Int) -> Int64 { Int64(index + 2) * 1024 }
}

extension PersistentStore {
    /// Moves everything in the write-ahead log into the main file.
    public func checkpoint() throws {
        guard !isReadOnly else { throw StoreError.readOnly(path: path) }
        try checkStillInPlace()
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}
