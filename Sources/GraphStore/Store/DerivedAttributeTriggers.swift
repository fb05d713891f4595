/// The triggers a new store gets for its derived attributes, as Core Data gives a store it
/// creates: SQLite keeps the values when any writer (Core Data, GraphStore, a script with
/// Core Data's functions registered) changes their inputs.
///
/// Named as Core Data names them (`Z_DA_<TABLE>_<Entity>_<attribute>_…`: for a count,
/// `_PARAMETER_INSERT`, `_PARAMETER_UPDATE_INCREMENT`, `_PARAMETER_UPDATE_DECREMENT`,
/// `_PARAMETER_DELETE` on the counted table and `_SOURCE_INSERT` on the owner's; for
/// `now()`, `_INSERT` and `_UPDATE` on `Z_OPT`), each reporting the new value through
/// `NSCoreDataDATriggerUpdatedAffectedObjectValue` (or its `Insert` variant) as Core Data's
/// do. Their bodies recompute the whole value (a count, a sum, a copied value) rather than
/// adding or subtracting one, so a row written by a writer without triggers cannot make
/// the value drift.
///
/// Not covered (GraphStore's save still writes the values): `canonical:`, `lowercase:` and
/// `uppercase:`, whose triggers call SQL functions Core Data does not document; key paths
/// longer than one to-one; `@sum` through a join table. A Core Data app writing such a
/// store does not update those attributes.
struct DerivedAttributeTriggers {
    let model: ManagedObjectModel
    let mappings: [String: EntityMapping]

    /// Every trigger's `CREATE TRIGGER` statement, entity by entity.
    func statements() -> [String] {
        var sql: [String] = []
        for entity in model.entitiesInNumberingOrder {
            guard let mapping = mappings[entity.name] else { continue }
            for attribute in entity.attributes {
                guard let derivation = attribute.derivationExpression.flatMap(Derivation.init(parsing:)),
                    let column = mapping.attribute(named: attribute.name)?.column
                else { continue }
                sql += triggers(derivation, Target(mapping: mapping, attribute: attribute.name, column: column))
            }
        }
        return sql
    }

    /// The row set a derived attribute lives in.
    private struct Target {
        let mapping: EntityMapping
        let attribute: String
        let column: String

        var table: String { mapping.table }
        var entities: String { "Z_ENT IN (\(mapping.numbersWithDescendants.map(String.init).joined(separator: ", ")))" }

        func name(on table: String, _ suffix: String) -> String { "Z_DA_\(table)_\(mapping.name)_\(attribute)_\(suffix)" }

        /// Sets the value of the rows `rows` selects (a condition on the target table) and
        /// reports each.
        func set(_ value: String, where rows: String, inserted: Bool = false) -> String {
            let report = inserted ? "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue" : "NSCoreDataDATriggerUpdatedAffectedObjectValue"
            return " BEGIN UPDATE \(table) SET \(column) = \(value) WHERE \(rows) AND \(entities);"
                + " SELECT \(report)('\(table)', Z_ENT, Z_PK, '\(attribute)', \(column)) FROM \(table) WHERE \(rows) AND \(entities); END"
        }
    }

    private func triggers(_ derivation: Derivation, _ target: Target) -> [String] {
        switch derivation {
        case .now:
            let set = target.set("NSCoreDataNow()", where: "Z_PK = NEW.Z_PK")
            return [
                "CREATE TRIGGER IF NOT EXISTS \(target.name(on: target.table, "INSERT")) AFTER INSERT ON \(target.table) FOR EACH ROW\(set)",
                "CREATE TRIGGER IF NOT EXISTS \(target.name(on: target.table, "UPDATE")) AFTER UPDATE OF Z_OPT ON \(target.table) FOR EACH ROW\(set)",
            ]
        case .keyPath(let path):
            return keyPathTriggers(path, target)
        case .function:
            return []
        case .aggregate(let aggregate, let relationship, let attribute):
            return aggregateTriggers(aggregate, relationship, attribute, target)
        }
    }

    /// A copied value: set when the row is written, and when its source changes.
    private func keyPathTriggers(_ path: [String], _ target: Target) -> [String] {
        let mapping = target.mapping
        if path.count == 1, let source = mapping.attribute(named: path[0])?.column {
            return [
                "CREATE TRIGGER IF NOT EXISTS \(target.name(on: target.table, "INSERT")) AFTER INSERT ON \(target.table) FOR EACH ROW"
                    + target.set("NEW.\(source)", where: "Z_PK = NEW.Z_PK", inserted: true),
                "CREATE TRIGGER IF NOT EXISTS \(target.name(on: target.table, "UPDATE")) AFTER UPDATE OF \(source) ON \(target.table) FOR EACH ROW"
                    + target.set("NEW.\(source)", where: "Z_PK = NEW.Z_PK"),
            ]
        }
        guard path.count == 2, let relationship = mapping.relationship(named: path[0]),
            case .foreignKey(let key, _, _) = relationship.storage,
            let destination = mappings.values.first(where: { $0.number == relationship.destinationNumbers.first }),
            let source = destination.attribute(named: path[1])?.column
        else { return [] }
        let value = "(SELECT \(source) FROM \(destination.table) WHERE Z_PK = NEW.\(key))"
        return [
            "CREATE TRIGGER IF NOT EXISTS \(target.name(on: target.table, "INSERT")) AFTER INSERT ON \(target.table) FOR EACH ROW"
                + target.set(value, where: "Z_PK = NEW.Z_PK", inserted: true),
            "CREATE TRIGGER IF NOT EXISTS \(target.name(on: target.table, "UPDATE")) AFTER UPDATE OF \(key) ON \(target.table) FOR EACH ROW"
                + target.set(value, where: "Z_PK = NEW.Z_PK"),
            "CREATE TRIGGER IF NOT EXISTS \(target.name(on: destination.table, "PARAMETER_UPDATE")) AFTER UPDATE OF \(source) ON \(destination.table) FOR EACH ROW"
                + target.set("NEW.\(source)", where: "\(key) = NEW.Z_PK"),
        ]
    }

    /// A count or sum over a to-many: recomputed for the owner a counted row joins, leaves
    /// or changes in, and for a new owner.
    private func aggregateTriggers(_ aggregate: Derivation.Aggregate, _ name: String, _ attribute: String?, _ target: Target) -> [String] {
        guard let relationship = target.mapping.relationship(named: name),
            let destination = mappings.values.first(where: { $0.number == relationship.destinationNumbers.first })
        else { return [] }
        let destinations = "Z_ENT IN (\(relationship.destinationNumbers.map(String.init).joined(separator: ", ")))"
        let valueColumn = attribute.flatMap { destination.attribute(named: $0)?.column }
        if attribute != nil, valueColumn == nil { return [] }
        let total = valueColumn.map { "IFNULL(SUM(\($0)), 0)" } ?? "COUNT(*)"
        switch relationship.storage {
        case .inverseForeignKey(let table, let key, _, _):
            func value(_ owner: String) -> String { "(SELECT \(total) FROM \(table) WHERE \(key) = \(owner) AND \(destinations))" }
            let watched = ([key] + [valueColumn].compactMap { $0 }).joined(separator: ", ")
            return [
                "CREATE TRIGGER IF NOT EXISTS \(target.name(on: table, "PARAMETER_INSERT")) AFTER INSERT ON \(table) FOR EACH ROW WHEN (NEW.\(key) NOT NULL)"
                    + target.set(value("NEW.\(key)"), where: "Z_PK = NEW.\(key)"),
                "CREATE TRIGGER IF NOT EXISTS \(target.name(on: table, "PARAMETER_UPDATE_INCREMENT")) AFTER UPDATE OF \(watched) ON \(table) FOR EACH ROW WHEN (NEW.\(key) NOT NULL)"
                    + target.set(value("NEW.\(key)"), where: "Z_PK = NEW.\(key)"),
                "CREATE TRIGGER IF NOT EXISTS \(target.name(on: table, "PARAMETER_UPDATE_DECREMENT")) AFTER UPDATE OF \(key) ON \(table) FOR EACH ROW WHEN (OLD.\(key) NOT NULL AND OLD.\(key) IS NOT NEW.\(key))"
                    + target.set(value("OLD.\(key)"), where: "Z_PK = OLD.\(key)"),
                "CREATE TRIGGER IF NOT EXISTS \(target.name(on: table, "PARAMETER_DELETE")) AFTER DELETE ON \(table) FOR EACH ROW WHEN (OLD.\(key) NOT NULL)"
                    + target.set(value("OLD.\(key)"), where: "Z_PK = OLD.\(key)"),
                "CREATE TRIGGER IF NOT EXISTS \(target.name(on: target.table, "SOURCE_INSERT")) AFTER INSERT ON \(target.table) FOR EACH ROW"
                    + target.set(value("NEW.Z_PK"), where: "Z_PK = NEW.Z_PK", inserted: true),
            ]
        case .joinTable(let join) where valueColumn == nil:
            func value(_ owner: String) -> String { "(SELECT COUNT(*) FROM \(join.table) WHERE \(join.sourceColumn) = \(owner))" }
            return [
                "CREATE TRIGGER IF NOT EXISTS \(target.name(on: join.table, "PARAMETER_INSERT")) AFTER INSERT ON \(join.table) FOR EACH ROW"
                    + target.set(value("NEW.\(join.sourceColumn)"), where: "Z_PK = NEW.\(join.sourceColumn)"),
                "CREATE TRIGGER IF NOT EXISTS \(target.name(on: join.table, "PARAMETER_DELETE")) AFTER DELETE ON \(join.table) FOR EACH ROW"
                    + target.set(value("OLD.\(join.sourceColumn)"), where: "Z_PK = OLD.\(join.sourceColumn)"),
                "CREATE TRIGGER IF NOT EXISTS \(target.name(on: target.table, "SOURCE_INSERT")) AFTER INSERT ON \(target.table) FOR EACH ROW"
                    + target.set(value("NEW.Z_PK"), where: "Z_PK = NEW.Z_PK", inserted: true),
            ]
        default:
            return []
        }
    }
}
