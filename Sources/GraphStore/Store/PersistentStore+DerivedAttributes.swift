import Foundation

/// A derived attribute's new stored value in one row, as a save's recomputation wrote it.
struct DerivedValueChange {
    /// The row's entity (its `Z_ENT`).
    let mapping: EntityMapping
    /// The row's key.
    let primaryKey: Int64
    /// The attribute's index in `mapping.attributes`.
    let attributeIndex: Int
    /// The value now stored.
    let value: AttributeValue?
}

/// What a derived-attribute trigger reported it set.
struct DerivedValueReport {
    let entityNumber: Int
    let primaryKey: Int64
    let property: String
    let value: SQLiteValue
}

/// Derived attributes, recomputed in the save's transaction as Core Data recomputes them
/// when it saves: a key path of to-ones copied, a string function of one, a to-many's
/// `@count` or `@sum`, `now()` (the time of the save).
///
/// Core Data keeps them with triggers in the store; a store it wrote still has them and
/// they run on GraphStore's writes too (their callbacks are registered at opening). The
/// recomputation here does not rely on them: after the save's writes, each derived
/// attribute whose inputs live in a table the save wrote is compared with its expression,
/// computed by SQLite, and rows that differ get the new value (their `Z_OPT` unchanged, as
/// Core Data's triggers leave it). `now()` is set on every row the save inserted or updated.
extension PersistentStore {
    /// The SQL functions the recomputation's statements call for `canonical:`, `lowercase:`
    /// and `uppercase:`. They are GraphStore's own and appear in no stored schema.
    static func derivationFunctionName(_ function: Derivation.StringFunction) -> String {
        "GRAPHSTORE_DERIVED_" + function.rawValue.uppercased()
    }

    /// Registers the string functions, and `NSCoreDataNow`, which Core Data's `now()`
    /// triggers call (seconds since 2001-01-01, as Core Data stores dates).
    func registerDerivationFunctions() throws(StoreError) {
        do {
            for function in Derivation.StringFunction.allCases {
                try connection.registerFunction(PersistentStore.derivationFunctionName(function), argumentCount: 1) { arguments in
                    guard case .text(let text)? = arguments.first else { return arguments.first ?? .null }
                    return .text(Derivation.apply(function, to: text))
                }
            }
            try connection.registerFunction("NSCoreDataNow", argumentCount: 0, deterministic: false) { _ in
                .real(Date().timeIntervalSinceReferenceDate)
            }
            // Core Data's triggers report each value they set (table, Z_ENT, Z_PK, property,
            // value), so that the saving context shows it; kept for the save to take.
            let reports = derivedValueReports
            for name in ["NSCoreDataDATriggerUpdatedAffectedObjectValue", "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue"] {
                try connection.registerFunction(name, argumentCount: -1, deterministic: false) { arguments in
                    if arguments.count == 5, case .integer(let number) = arguments[1], case .integer(let key) = arguments[2],
                        case .text(let property) = arguments[3]
                    {
                        reports.value.append(DerivedValueReport(entityNumber: Int(number), primaryKey: key, property: property, value: arguments[4]))
                    }
                    return .null
                }
            }
        } catch {
            throw .sqlite(error)
        }
    }

    /// Recomputes every derived attribute that reads a table in `written` (each table a save
    /// inserted into, updated or deleted from), and sets `now()` attributes of the rows in
    /// `saved` (each row the save inserted or updated) to `date`. Returns the values written.
    func recomputeDerivedAttributes(written tables: Set<String>, saved: [(mapping: EntityMapping, key: Int64)], at date: Date) throws -> [DerivedValueChange] {
        var changes = derivedValueReports.value.compactMap(change(reported:))
        derivedValueReports.value = []
        for (mapping, key) in saved {
            for (index, slot) in mapping.attributes.enumerated() where slot.derivation == .now {
                guard let column = slot.column else { continue }
                try connection.cachedStatement("UPDATE \(mapping.table) SET \(column) = ? WHERE \(mapping.keys.integer("Z_PK")) = ?")
                    .execute([RowCodec.encode(.date(date), as: .date), .integer(key)])
                changes.append(DerivedValueChange(mapping: mapping, primaryKey: key, attributeIndex: index, value: .date(date)))
            }
        }
        for mapping in allMappings {
            for attribute in mapping.entity.attributes {
                guard let derivation = attribute.derivationExpression.flatMap(Derivation.init(parsing:)), derivation != .now,
                    let column = mapping.attribute(named: attribute.name)?.column
                else { continue }
                let plan = try derivationSQL(derivation, of: mapping, attribute: attribute)
                guard !plan.tables.isDisjoint(with: tables) else { continue }
                changes += try recompute(mapping, attribute: attribute, column: column, expression: plan.expression)
            }
        }
        return changes
    }

    /// Forgets what triggers reported outside a save (a save starts from none).
    func discardDerivedValueReports() { derivedValueReports.value = [] }

    /// A trigger's report as a value to show; nil for a row or property this model lacks.
    private func change(reported report: DerivedValueReport) -> DerivedValueChange? {
        guard let mapping = mapping(number: report.entityNumber), let index = mapping.attributeIndex(of: report.property),
            let value = try? RowCodec.decode(report.value, as: mapping.attributes[index].attribute.type)
        else { return nil }
        return DerivedValueChange(mapping: mapping, primaryKey: report.primaryKey, attributeIndex: index, value: value)
    }

    /// Finds the rows whose stored value differs from the expression and writes them.
    private func recompute(_ mapping: EntityMapping, attribute: AttributeDescription, column: String, expression: String) throws -> [DerivedValueChange] {
        let numbers = mapping.numbersWithDescendants.map(String.init).joined(separator: ", ")
        let rows = try connection.rows(
            "SELECT \(mapping.keys.integer("Z_PK", alias: "t")), \(mapping.keys.integer("Z_ENT", alias: "t")), \(expression) FROM \(mapping.table) t"
                + " WHERE \(mapping.keys.integer("Z_ENT", alias: "t")) IN (\(numbers)) AND t.\(column) IS NOT \(expression)")
        var changes: [DerivedValueChange] = []
        let update = try connection.cachedStatement("UPDATE \(mapping.table) SET \(column) = ? WHERE \(mapping.keys.integer("Z_PK")) = ?")
        for row in rows {
            guard row.count == 3, case .integer(let key) = row[0], case .integer(let number) = row[1] else { continue }
            try update.execute([row[2], .integer(key)])
            // The row's own entity, whose attribute list the context's object has.
            guard let owner = self.mapping(number: Int(number)), let index = owner.attributeIndex(of: attribute.name) else { continue }
            let value: AttributeValue?
            do {
                value = try RowCodec.decode(row[2], as: attribute.type)
            } catch {
                continue  // Stored all the same; the object reads it when it is next fetched.
            }
            changes.append(DerivedValueChange(mapping: owner, primaryKey: key, attributeIndex: index, value: value))
        }
        return changes
    }

    /// The SQL expression (over the target row, alias `t`) a derivation computes, and the
    /// tables it reads.
    private func derivationSQL(_ derivation: Derivation, of mapping: EntityMapping, attribute: AttributeDescription) throws -> (expression: String, tables: Set<String>) {
        switch derivation {
        case .now:
            return ("NULL", [])
        case .keyPath(let path):
            let value = try keyPathSQL(path, from: mapping, alias: "t", depth: 0, for: attribute)
            return (value.expression, value.tables.union([mapping.table]))
        case .function(let function, let path):
            let value = try keyPathSQL(path, from: mapping, alias: "t", depth: 0, for: attribute)
            return ("\(PersistentStore.derivationFunctionName(function))(\(value.expression))", value.tables.union([mapping.table]))
        case .aggregate(let aggregate, let name, let attributeName):
            guard let relationship = mapping.relationship(named: name), let destination = self.mapping(number: relationship.destinationNumbers.first ?? 0) else {
                throw unreadable(mapping, attribute, "\(name) is not a relationship of this store's \(mapping.name)")
            }
            var valueColumn = "1"
            if let attributeName {
                guard let column = destination.attribute(named: attributeName)?.column else {
                    throw unreadable(mapping, attribute, "\(destination.name).\(attributeName) has no column")
                }
                valueColumn = "d.\(column)"
            }
            let total = aggregate == .count ? "COUNT(*)" : "IFNULL(SUM(\(valueColumn)), 0)"
            let numbers = relationship.destinationNumbers.map(String.init).joined(separator: ", ")
            let entityFilter = "\(destination.keys.integer("Z_ENT", alias: "d")) IN (\(numbers))"
            let expression: String
            var tables: Set<String> = [mapping.table, destination.table]
            switch relationship.storage {
            case .inverseForeignKey(let table, let column, _, _):
                expression = "(SELECT \(total) FROM \(table) d WHERE d.\(column) = \(mapping.keys.integer("Z_PK", alias: "t")) AND \(entityFilter))"
            case .joinTable(let join):
                tables.insert(join.table)
                expression = "(SELECT \(total) FROM \(join.table) j JOIN \(destination.table) d ON \(destination.keys.integer("Z_PK", alias: "d")) = j.\(join.destinationColumn)"
                    + " WHERE j.\(join.sourceColumn) = \(mapping.keys.integer("Z_PK", alias: "t")) AND \(entityFilter))"
            default:
                throw unreadable(mapping, attribute, "\(name) is not kept as a to-many in this store")
            }
            return (cast(expression, to: attribute.type), tables)
        }
    }

    /// The value at the end of a key path of to-ones, as nested sub-selects.
    private func keyPathSQL(
        _ path: [String], from mapping: EntityMapping, alias: String, depth: Int, for attribute: AttributeDescription
    ) throws -> (expression: String, tables: Set<String>) {
        guard let step = path.first else { throw unreadable(mapping, attribute, "an empty key path") }
        if path.count == 1 {
            guard let column = mapping.attribute(named: step)?.column else { throw unreadable(mapping, attribute, "\(mapping.name).\(step) has no column") }
            return ("\(alias).\(column)", [])
        }
        guard let relationship = mapping.relationship(named: step), case .foreignKey(let column, _, _) = relationship.storage,
            let destination = self.mapping(number: relationship.destinationNumbers.first ?? 0)
        else { throw unreadable(mapping, attribute, "\(mapping.name).\(step) is not kept as a to-one column in this store") }
        let inner = "d\(depth)"
        let rest = try keyPathSQL(Array(path.dropFirst()), from: destination, alias: inner, depth: depth + 1, for: attribute)
        return (
            "(SELECT \(rest.expression) FROM \(destination.table) \(inner) WHERE \(destination.keys.integer("Z_PK", alias: inner)) = \(alias).\(column))",
            rest.tables.union([destination.table])
        )
    }

    /// Numbers are stored in the attribute's own kind: a count into a Double is a real.
    private func cast(_ expression: String, to type: AttributeType) -> String {
        if type.isInteger { return "CAST(\(expression) AS INTEGER)" }
        if type == .double || type == .float { return "CAST(\(expression) AS REAL)" }
        return expression
    }

    private func unreadable(_ mapping: EntityMapping, _ attribute: AttributeDescription, _ reason: String) -> StoreError {
        .malformedStore(path: path, reason: "derived attribute \(mapping.name).\(attribute.name) (\(attribute.derivationExpression ?? "")) cannot be computed: \(reason)")
    }
}

extension Derivation {
    /// A string function as GraphStore computes it: `canonical:` strips diacritics and folds
    /// case as a `[cd]` comparison does.
    static func apply(_ function: StringFunction, to text: String) -> String {
        switch function {
        case .canonical: StringMatching.fold(text, [.caseInsensitive, .diacriticInsensitive])
        case .lowercase: text.lowercased()
        case .uppercase: text.uppercased()
        }
    }
}

extension AttributeMapping {
    /// The attribute's derivation, when it has one GraphStore reads.
    var derivation: Derivation? { attribute.derivationExpression.flatMap(Derivation.init(parsing:)) }
}
