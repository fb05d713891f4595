/// Writes the DDL of a new store in Core Data's layout: entity tables, join tables,
/// indexes, derived attributes' triggers (``DerivedAttributeTriggers``), `Z_PRIMARYKEY` and
/// `Z_METADATA`.
struct SchemaWriter {
    let model: ManagedObjectModel
    let mappings: [String: EntityMapping]

    /// Every statement, in order.
    func statements() -> [String] {
        var sql: [String] = []
        var joins: [String: JoinTable] = [:]
        for root in model.entitiesInNumberingOrder where root.parent == nil {
            guard let rootMapping = mappings[root.name] else { continue }
            sql.append(createTable(root: root, table: rootMapping.table))
            sql += indexes(root: root, table: rootMapping.table)
            for entity in model.selfAndDescendants(of: root.name) {
                for case .joinTable(let join) in mappings[entity.name]?.relationships.map(\.storage) ?? [] {
                    joins[join.table] = joins[join.table] ?? join
                }
            }
        }
        for name in joins.keys.sorted() {
            guard let join = joins[name] else { continue }
            let (first, second) = join.sourceColumn < join.destinationColumn
                ? (join.sourceColumn, join.destinationColumn) : (join.destinationColumn, join.sourceColumn)
            let orders = [join.orderColumn, join.inverseOrderColumn].compactMap { $0 }.sorted()
            let columns = ([first, second] + orders).map { "\($0) INTEGER" }.joined(separator: ", ")
            sql.append("CREATE TABLE \(name) ( \(columns), PRIMARY KEY (\(first), \(second)) )")
            sql.append("CREATE INDEX \(name)_\(second)_INDEX ON \(name) (\(second), \(first))")
        }
        sql += DerivedAttributeTriggers(model: model, mappings: mappings).statements()
        sql.append("CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
        sql.append("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
        return sql
    }

    /// Column groups in the order Core Data declares them.
    private static let groupOrder = ["INTEGER", "FLOAT", "DECIMAL", "VARCHAR", "BLOB"]

    private func createTable(root: EntityDescription, table: String) -> String {
        var groups: [String: [String]] = [:]
        for entity in model.selfAndDescendants(of: root.name) {
            guard let mapping = mappings[entity.name] else { continue }
            var own: [String: [(String, String)]] = [:]
            for a in mapping.attributes where entity.attribute(named: a.attribute.name) != nil {
                guard let column = a.column else { continue }
                let type = a.attribute.type.columnType
                own[type == "TIMESTAMP" ? "FLOAT" : type, default: []].append((column, type))
            }
            var keys: [(String, String)] = []
            var orders: [(String, String)] = []
            for r in mapping.relationships where entity.relationship(named: r.relationship.name) != nil {
                guard case .foreignKey(let column, let entityColumn, let orderColumn) = r.storage else { continue }
                keys.append((column, "INTEGER"))
                if let entityColumn { keys.append((entityColumn, "INTEGER")) }
                if let orderColumn { orders.append((orderColumn, "INTEGER")) }
            }
            groups["INTEGER", default: []] += (own["INTEGER"] ?? []).sorted { $0.0 < $1.0 }.map { "\($0.0) \($0.1)" }
            groups["INTEGER", default: []] += (keys + orders).map { "\($0.0) \($0.1)" }
            for group in SchemaWriter.groupOrder.dropFirst() {
                groups[group, default: []] += (own[group] ?? []).sorted { $0.0 < $1.0 }.map { "\($0.0) \($0.1)" }
            }
        }
        let columns = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"]
            + SchemaWriter.groupOrder.flatMap { groups[$0] ?? [] }
        return "CREATE TABLE \(table) ( \(columns.joined(separator: ", ")) )"
    }

    private func indexes(root: EntityDescription, table: String) -> [String] {
        var sql: [String] = []
        let family = model.selfAndDescendants(of: root.name)
        if family.count > 1 {
            sql.append("CREATE INDEX \(table)_Z_ENT_INDEX ON \(table) (Z_ENT)")
        }
        for entity in family {
            guard let mapping = mappings[entity.name] else { continue }
            for r in mapping.relationships where entity.relationship(named: r.relationship.name) != nil {
                if case .foreignKey(let column, _, _) = r.storage {
                    sql.append("CREATE INDEX \(table)_\(column)_INDEX ON \(table) (\(column))")
                }
            }
            for a in mapping.attributes where a.attribute.isIndexed && entity.attribute(named: a.attribute.name) != nil {
                if let column = a.column { sql.append("CREATE INDEX \(table)_\(column)_INDEX ON \(table) (\(column))") }
            }
            for index in entity.fetchIndexes {
                let columns = index.elements.compactMap { element in
                    column(of: element.property, in: mapping).map { "\($0) COLLATE BINARY \(element.ascending ? "ASC" : "DESC")" }
                }
                sql.append("CREATE INDEX \(SchemaWriter.fetchIndexName(entity: entity.name, index: index.name)) ON \(table) (\(columns.joined(separator: ", ")))")
            }
            for constraint in entity.uniquenessConstraints {
                let columns = constraint.compactMap { column(of: $0, in: mapping).map { "\($0) COLLATE BINARY ASC" } }
                sql.append("CREATE UNIQUE INDEX Z_\(entity.name)_UNIQUE_\(constraint.joined(separator: "_")) ON \(table) (\(columns.joined(separator: ", ")))")
            }
        }
        return sql
    }

    /// The name Core Data gives the index of an entity's fetch index: `Z_<Entity>_<index>`.
    static func fetchIndexName(entity: String, index: String) -> String {
        "Z_\(entity)_\(index)"
    }

    private func column(of property: String, in mapping: EntityMapping) -> String? {
        if let column = mapping.attribute(named: property)?.column { return column }
        if case .foreignKey(let column, _, _)? = mapping.relationship(named: property)?.storage { return column }
        return nil
    }
}
