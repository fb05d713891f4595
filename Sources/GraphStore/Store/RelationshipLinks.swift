/// The links of one stored relationship as SQL, whatever its shape: a `SELECT` of one row
/// per link, `a` the owner's key and `b` the destination's, `ra` the destination's position
/// among the owner's destinations and `sb` the owner's position among the destination's
/// (each `NULL` where that side has no order column).
///
/// A migration reads a relationship through its links when the way it is stored changes
/// (a to-many become to-one, a column become a join table, …): the new column, or the new
/// join rows, come from this one `SELECT`, run by SQLite inside an `INSERT … SELECT`.
struct RelationshipLinks {
    /// `SELECT a, b, ra, sb FROM …`.
    var select: String
    /// Whether `ra` holds a stored order (the relationship is an ordered to-many).
    var hasOwnerOrder: Bool
    /// Whether `sb` holds a stored order (the inverse is an ordered to-many).
    var hasInverseOrder: Bool
    /// The table the destinations live in.
    var destinationTable: String
}

extension PersistentStore {
    /// The links of `owner`'s relationship `name`, read from the tables of the database
    /// named `schema` (`src.` for an attached source, empty for the store's own), or nil when
    /// the relationship is not stored in a way GraphStore reads.
    func links(of name: String, in owner: EntityMapping, schema: String = "") -> RelationshipLinks? {
        guard let relationship = owner.relationship(named: name), let destination = mappings[relationship.relationship.destination] else {
            return nil
        }
        let destinationTable = schema + destination.table
        switch relationship.storage {
        case .foreignKey(let column, _, let orderColumn):
            // Every entity of the table that has this very column: the owner's whole hierarchy.
            let owners = allMappings.filter { $0.table == owner.table && $0.relationship(named: name)?.storage == relationship.storage }
            let numbers = owners.map { String($0.number) }.joined(separator: ", ")
            return RelationshipLinks(
                select: "SELECT Z_PK AS a, \(column) AS b, NULL AS ra, \(orderColumn ?? "NULL") AS sb FROM \(schema)\(owner.table) WHERE Z_ENT IN (\(numbers)) AND \(column) IS NOT NULL",
                hasOwnerOrder: false, hasInverseOrder: orderColumn != nil, destinationTable: destinationTable)
        case .inverseForeignKey(let table, let column, _, let orderColumn):
            let numbers = relationship.destinationNumbers.map(String.init).joined(separator: ", ")
            return RelationshipLinks(
                select: "SELECT \(column) AS a, Z_PK AS b, \(orderColumn ?? "NULL") AS ra, NULL AS sb FROM \(schema)\(table) WHERE Z_ENT IN (\(numbers)) AND \(column) IS NOT NULL",
                hasOwnerOrder: orderColumn != nil, hasInverseOrder: false, destinationTable: destinationTable)
        case .joinTable(let join):
            return RelationshipLinks(
                select: "SELECT \(join.sourceColumn) AS a, \(join.destinationColumn) AS b, \(join.orderColumn ?? "NULL") AS ra, \(join.inverseOrderColumn ?? "NULL") AS sb FROM \(schema)\(join.table)",
                hasOwnerOrder: join.orderColumn != nil, hasInverseOrder: join.inverseOrderColumn != nil, destinationTable: destinationTable)
        case .notStored:
            return nil
        }
    }

    /// The objects of exactly `owner` that have more than one destination through `name`:
    /// how many, and the one with the smallest key. One grouped `SELECT`; nothing is held
    /// in memory per object.
    func objectsWithSeveralDestinations(of name: String, in owner: EntityMapping) throws(StoreError) -> (count: Int, example: ObjectID?) {
        guard let links = links(of: name, in: owner) else { return (0, nil) }
        let sql = """
            SELECT COUNT(*), MIN(a) FROM (SELECT l.a AS a FROM (\(links.select)) l JOIN \(owner.table) o ON o.Z_PK = l.a \
            WHERE o.Z_ENT = \(owner.number) GROUP BY l.a HAVING COUNT(*) > 1)
            """
        return try countWithExample(sql, owner: owner)
    }

    /// The answer of a `SELECT COUNT(*), MIN(Z_PK) …` over `owner`'s objects: how many, and
    /// the one with the lowest key (nil when none).
    func countWithExample(_ sql: String, owner: EntityMapping) throws(StoreError) -> (count: Int, example: ObjectID?) {
        let row: [SQLiteValue]
        do {
            row = try connection.rows(sql).first ?? []
        } catch {
            throw .sqlite(error)
        }
        guard row.count == 2, case .integer(let count) = row[0], count > 0, case .integer(let key) = row[1] else { return (0, nil) }
        // A key no ID can hold (a damaged store, see `KeyOutOfRange.swift`) has none to show.
        return (Int(count), ObjectID.canHold(key) ? ObjectID(mapping: owner, primaryKey: key) : nil)
    }
}
