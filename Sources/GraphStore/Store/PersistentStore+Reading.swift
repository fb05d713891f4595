/// Reading rows: objects by key, entity families for fetches, relationship destinations.
extension PersistentStore {
    /// Reads one object's row, or nil when no row has that key and entity.
    public func row(of mapping: EntityMapping, primaryKey: Int64) throws(StoreError) -> StoredRow? {
        let reader = rowReader(family: [mapping])
        let sql = "SELECT \(reader.selectList(alias: "t0")) FROM \(mapping.table) t0 WHERE \(mapping.keys.integer("Z_PK", alias: "t0")) = ?"
        do {
            let statement = try connection.cachedStatement(sql)
            defer { statement.reset() }
            statement.bind(primaryKey, at: 1)
            guard try statement.step() else { return nil }
            return RowCursor(statement: statement, store: self, family: reader.family, reader: reader).storedRow()
        } catch {
            throw .sqlite(error)
        }
    }

    /// Streams the rows of an entity (and its sub-entities, unless `exactEntity`), in key
    /// order, without holding them all in memory.
    public func forEachRow(
        of mapping: EntityMapping, exactEntity: Bool = false, limit: Int? = nil, offset: Int = 0,
        _ body: (StoredRow) throws -> Void
    ) throws {
        let family = exactEntity ? [mapping] : self.family(of: mapping)
        let reader = rowReader(family: family)
        var sql = "SELECT \(reader.selectList(alias: "t0")) FROM \(mapping.table) t0"
        var arguments: [SQLiteValue] = []
        if let filter = objectFilter(family, alias: "t0") {
            sql += " WHERE " + filter.sql
            arguments = filter.arguments
        }
        sql += " ORDER BY \(mapping.keys.integer("Z_PK", alias: "t0"))"
        if limit != nil || offset > 0 {
            sql += " LIMIT ? OFFSET ?"
            arguments += [.integer(Int64(limit ?? -1)), .integer(Int64(offset))]
        }
        let statement = try connection.cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        // `body` may evaluate predicates (validation does): an interrupt stops their matches.
        let cursor = RowCursor(statement: statement, store: self, family: family, reader: reader)
        var row: StoredRow?
        try watchingInterrupts {
            while try statement.step() {
                // One row's arrays are reused for the next when `body` keeps no copy.
                if cursor.read(into: &row), let row { try body(row) }
            }
        }
    }

    /// The keys and entity numbers of a to-many relationship's destinations, in order.
    public func destinations(of relationship: RelationshipMapping, from source: Int64) throws(StoreError) -> [(primaryKey: Int64, entityNumber: Int)] {
        let destination = try mapping(for: relationship.relationship.destination)
        let sql: String
        switch relationship.storage {
        case .inverseForeignKey(let table, let column, _, let orderColumn):
            let keys = destination.keys
            sql = "SELECT Z_PK, Z_ENT FROM \(table) WHERE \(keys.integer(column)) = ?"
                + (orderColumn.map { " ORDER BY \(keys.integer($0)), \(keys.integer("Z_PK"))" } ?? " ORDER BY \(keys.integer("Z_PK"))")
        case .joinTable(let join):
            sql = "SELECT t.Z_PK, t.Z_ENT FROM \(join.table) j JOIN \(destination.table) t ON t.Z_PK = j.\(join.destinationColumn)"
                + " WHERE j.\(join.sourceColumn) = ?" + (join.orderColumn.map { " ORDER BY j.\($0), t.Z_PK" } ?? " ORDER BY t.Z_PK")
        case .foreignKey, .notStored:
            return []
        }
        var result: [(Int64, Int)] = []
        do {
            let statement = try connection.cachedStatement(sql)
            defer { statement.reset() }
            statement.bind(source, at: 1)
            while try statement.step() {
                result.append((statement.int64(0), Int(statement.int64(1))))
            }
        } catch {
            throw .sqlite(error)
        }
        if let outside = result.first(where: { !ObjectID.canHold($0.0) }) {
            throw .rowKeyOutOfRange(entity: destination.name, key: outside.0)
        }
        return result
    }

    /// The entity number of the row with this key in a table, or nil if there is none
    /// (used to resolve to-one keys that have no `Z<n>_` companion column).
    public func entityNumber(inTable table: String, primaryKey: Int64) throws(StoreError) -> Int? {
        let owner = root(ofTable: table)
        if let owner, owner.isAloneInTable {
            // Every row of the table is one of its objects (see `EntityMapping.isAloneInTable`).
            return try rowExists(owner, primaryKey: primaryKey) ? owner.number : nil
        }
        let keys = owner?.keys ?? KeyColumnSQL(table: nil)
        do {
            return try connection.scalar("SELECT \(keys.integer("Z_ENT")) FROM \(table) WHERE \(keys.integer("Z_PK")) = ?", [.integer(primaryKey)])?
                .integer.map(Int.init)
        } catch {
            throw .sqlite(error)
        }
    }
}

extension PersistentStore {
    /// Whether a row with this key is in the mapping's table.
    private func rowExists(_ mapping: EntityMapping, primaryKey: Int64) throws(StoreError) -> Bool {
        do {
            return try connection.scalar("SELECT 1 FROM \(mapping.table) WHERE \(mapping.keys.integer("Z_PK")) = ?", [.integer(primaryKey)]) != nil
        } catch {
            throw .sqlite(error)
        }
    }
}
