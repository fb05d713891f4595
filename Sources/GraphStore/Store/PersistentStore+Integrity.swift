/// The SQL behind validation: which stored rows hold given unique values, which values are
/// duplicated, which references point at rows that do not exist, and how many objects each
/// object's to-many relationships hold. Results stream or are small (only failures), so a
/// store of any size is checked without loading it.
extension PersistentStore {
    /// A stored object's key and concrete entity number.
    struct StoredKey: Sendable, Hashable {
        /// `Z_PK`.
        var primaryKey: Int64
        /// `Z_ENT`.
        var entityNumber: Int
    }

    /// Above this many value tuples, one scan of the table beats one lookup per tuple.
    private static let lookupLimit = 64

    /// The rows of an entity family (`scope` and its descendants) whose attributes `keys`
    /// hold one of the value tuples. A key without a column (transient) matches nothing.
    func rowsMatching(_ scope: EntityMapping, keys: [String], tuples: [[AttributeValue]]) throws -> [[AttributeValue]: [StoredKey]] {
        let attributes = keys.compactMap { scope.attribute(named: $0) }
        let columns = attributes.compactMap(\.column)
        guard !tuples.isEmpty, columns.count == keys.count else { return [:] }
        let types = attributes.map(\.attribute.type)
        var result: [[AttributeValue]: [StoredKey]] = [:]
        let objects = objectFilter(family(of: scope), alias: nil)
        let familyFilter = objects?.sql ?? ""
        let familyArguments = objects?.arguments ?? []
        if tuples.count <= PersistentStore.lookupLimit {
            let conditions = columns.map { "\($0) = ?" } + (familyFilter.isEmpty ? [] : [familyFilter])
            let statement = try connection.cachedStatement(
                "SELECT \(scope.keys.integer("Z_PK")), \(entityColumn(scope)) FROM \(scope.table) WHERE \(conditions.joined(separator: " AND ")) ORDER BY 1")
            defer { statement.reset() }
            for tuple in tuples {
                statement.reset()
                try statement.bind(zip(tuple, types).map { RowCodec.encode($0, as: $1) } + familyArguments)
                while try statement.step() {
                    result[tuple, default: []].append(StoredKey(primaryKey: statement.int64(0), entityNumber: Int(statement.int64(1))))
                }
            }
            return result
        }
        let wanted = Set(tuples)
        let filter = familyFilter.isEmpty ? "" : " WHERE \(familyFilter)"
        let statement = try connection.prepare(
            "SELECT \(scope.keys.integer("Z_PK")), \(entityColumn(scope)), \(columns.joined(separator: ", ")) FROM \(scope.table)\(filter) ORDER BY 1")
        try statement.bind(familyArguments)
        while try statement.step() {
            var tuple: [AttributeValue] = []
            for (i, type) in types.enumerated() {
                guard let value = try? RowCodec.decode(statement, column: 2 + i, as: type) else { break }
                tuple.append(RowCodec.normalize(value, type))
            }
            guard tuple.count == types.count, wanted.contains(tuple) else { continue }
            result[tuple, default: []].append(StoredKey(primaryKey: statement.int64(0), entityNumber: Int(statement.int64(1))))
        }
        return result
    }

    /// The value tuples of `keys` that more than one row of the family holds (rows with a
    /// NULL among them never count), each with the rows that hold it.
    func duplicateValues(_ scope: EntityMapping, keys: [String]) throws -> [(values: [AttributeValue], rows: [StoredKey])] {
        let attributes = keys.compactMap { scope.attribute(named: $0) }
        let columns = attributes.compactMap(\.column)
        guard columns.count == keys.count, !columns.isEmpty else { return [] }
        var conditions = columns.map { "\($0) IS NOT NULL" }
        var arguments: [SQLiteValue] = []
        if let objects = objectFilter(family(of: scope), alias: nil) {
            conditions.append(objects.sql)
            arguments = objects.arguments
        }
        let list = columns.joined(separator: ", ")
        let statement = try connection.prepare(
            "SELECT \(list) FROM \(scope.table) WHERE \(conditions.joined(separator: " AND ")) GROUP BY \(list) HAVING COUNT(*) > 1 ORDER BY \(list)")
        try statement.bind(arguments)
        var tuples: [[AttributeValue]] = []
        while try statement.step() {
            var tuple: [AttributeValue] = []
            for (i, a) in attributes.enumerated() {
                guard let value = try? RowCodec.decode(statement, column: i, as: a.attribute.type) else { break }
                tuple.append(RowCodec.normalize(value, a.attribute.type))
            }
            if tuple.count == columns.count { tuples.append(tuple) }
        }
        // Few duplicates are expected; each is looked up by value, which also regroups
        // values that differ only in storage class (5 and 5.0).
        var result: [(values: [AttributeValue], rows: [StoredKey])] = []
        var seen = Set<[AttributeValue]>()
        for tuple in tuples where seen.insert(tuple).inserted {
            let rows = try rowsMatching(scope, keys: keys, tuples: [tuple])[tuple] ?? []
            if rows.count > 1 { result.append((tuple, rows)) }
        }
        return result
    }

    /// Rows of exactly this entity whose to-one relationship (at `index` in the mapping)
    /// holds a key with no row of the destination entity behind it: `(row, missing key)`.
    func danglingReferences(_ mapping: EntityMapping, relationship index: Int, _ body: (Int64, Int64) throws -> Void) throws {
        let relationship = mapping.relationships[index]
        guard case .foreignKey(let column, _, _) = relationship.storage,
            let destination = self.mapping(named: relationship.relationship.destination)
        else { return }
        let numbers = relationship.destinationNumbers
        let (key, destinationKey) = (mapping.keys.integer(column, alias: "t"), destination.keys.integer("Z_PK", alias: "d"))
        let rows = objectFilter([mapping], alias: "t")
        let destinations = destination.isAloneInTable ? "" : " OR \(destination.keys.integer("Z_ENT", alias: "d")) NOT IN (\(placeholders(numbers.count)))"
        let sql = """
            SELECT \(mapping.keys.integer("Z_PK", alias: "t")), \(key) FROM \(mapping.table) t LEFT JOIN \(destination.table) d ON \(destinationKey) = \(key) \
            WHERE \(rows.map { $0.sql + " AND " } ?? "")t.\(column) IS NOT NULL AND (d.Z_PK IS NULL\(destinations)) \
            ORDER BY 1
            """
        let statement = try connection.prepare(sql)
        try statement.bind((rows?.arguments ?? []) + (destination.isAloneInTable ? [] : numbers.map { .integer(Int64($0)) }))
        while try statement.step() {
            try body(statement.int64(0), statement.int64(1))
        }
    }

    /// Rows of exactly this entity whose one-to-one relationship (at `index`) points at a
    /// row whose inverse key does not point back: `(row, destination key, the destination's
    /// inverse key or nil)`. Only a one-to-one keeps a key on both sides, so only it can
    /// disagree with itself.
    func mismatchedInverses(_ mapping: EntityMapping, relationship index: Int, _ body: (Int64, Int64, Int64?) throws -> Void) throws {
        let relationship = mapping.relationships[index]
        guard case .foreignKey(let column, _, _) = relationship.storage, let inverseName = relationship.relationship.inverse,
            let destination = self.mapping(named: relationship.relationship.destination),
            case .foreignKey(let inverseColumn, _, _)? = destination.relationship(named: inverseName)?.storage
        else { return }
        let key = mapping.keys.integer(column, alias: "t")
        let (rows, destinations) = (objectFilter([mapping], alias: "t"), objectFilter(family(of: destination), alias: "d"))
        let (primaryKey, inverse) = (mapping.keys.integer("Z_PK", alias: "t"), destination.keys.integer(inverseColumn, alias: "d"))
        let conditions = [rows?.sql, destinations?.sql].compactMap { $0 } + ["(d.\(inverseColumn) IS NULL OR \(inverse) != \(primaryKey))"]
        let sql = """
            SELECT \(primaryKey), \(key), \(inverse) FROM \(mapping.table) t JOIN \(destination.table) d ON \(destination.keys.integer("Z_PK", alias: "d")) = \(key) \
            WHERE \(conditions.joined(separator: " AND ")) ORDER BY 1
            """
        let statement = try connection.prepare(sql)
        try statement.bind((rows?.arguments ?? []) + (destinations?.arguments ?? []))
        while try statement.step() {
            try body(statement.int64(0), statement.int64(1), statement.isNull(2) ? nil : statement.int64(2))
        }
    }

    /// Join-table rows of a many-to-many relationship whose source row exists but whose
    /// destination row does not: `(source key, missing destination key)`.
    func danglingJoinRows(_ relationship: RelationshipMapping, sourceTable: String, _ body: (Int64, Int64) throws -> Void) throws {
        guard case .joinTable(let join) = relationship.storage,
            let destination = self.mapping(named: relationship.relationship.destination)
        else { return }
        let sql = """
            SELECT j.\(join.sourceColumn), j.\(join.destinationColumn) FROM \(join.table) j \
            JOIN \(sourceTable) s ON s.Z_PK = j.\(join.sourceColumn) \
            LEFT JOIN \(destination.table) d ON d.Z_PK = j.\(join.destinationColumn) \
            WHERE d.Z_PK IS NULL ORDER BY 1, 2
            """
        let statement = try connection.prepare(sql)
        while try statement.step() {
            try body(statement.int64(0), statement.int64(1))
        }
    }

    /// A cursor over the sizes of a to-many relationship, by owner key in increasing order,
    /// or nil when the relationship is not stored.
    func relationshipCounts(_ relationship: RelationshipMapping) throws -> RelationshipCountCursor? {
        let sql: String
        switch relationship.storage {
        case .inverseForeignKey(let table, let column, _, _):
            let owner = root(ofTable: table)?.keys.integer(column) ?? column
            sql = "SELECT \(owner), COUNT(*) FROM \(table) WHERE \(column) IS NOT NULL GROUP BY 1 ORDER BY 1"
        case .joinTable(let join):
            sql = "SELECT \(join.sourceColumn), COUNT(*) FROM \(join.table) GROUP BY \(join.sourceColumn) ORDER BY \(join.sourceColumn)"
        case .foreignKey, .notStored:
            return nil
        }
        return try RelationshipCountCursor(statement: connection.prepare(sql))
    }

    private func mapping(named name: String) -> EntityMapping? { mappings[name] }

    /// `Z_ENT` as a lookup reads it: an entity alone in its table is every row's entity.
    private func entityColumn(_ scope: EntityMapping) -> String {
        scope.isAloneInTable ? String(scope.number) : scope.keys.integer("Z_ENT")
    }
}

/// The sizes of one to-many relationship, read alongside rows streamed in key order: each
/// owner's count is read once, and no owner's count is held after it has been asked for.
final class RelationshipCountCursor {
    private let statement: Statement
    private var current: (owner: Int64, count: Int)?
    private var finished = false

    init(statement: Statement) throws {
        self.statement = statement
        try advance()
    }

    /// The number of objects `owner` holds; owners must be asked for in increasing order.
    func count(of owner: Int64) throws -> Int {
        while let entry = current, entry.owner < owner { try advance() }
        guard let entry = current, entry.owner == owner else { return 0 }
        return entry.count
    }

    private func advance() throws {
        guard !finished else { return }
        if try statement.step() {
            current = (statement.int64(0), Int(statement.int64(1)))
        } else {
            current = nil
            finished = true
        }
    }
}
