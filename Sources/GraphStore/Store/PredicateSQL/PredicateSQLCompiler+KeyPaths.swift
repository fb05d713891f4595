/// Key paths: attributes, to-one joins, to-many paths, `@count` and aggregates.
extension PredicateSQLCompiler {
    /// A to-many relationship reached by a key path, with what follows it.
    struct ToManyPath {
        /// The table whose rows own the relationship.
        var owner: SQLScope
        var relationship: RelationshipMapping
        var destination: EntityMapping
        /// The components after the relationship (`["name"]` in `children.name`).
        var suffix: [String]
    }

    /// What one side of a comparison compiles to.
    enum Operand {
        /// One value per row.
        case scalar(SQLOperand)
        /// A constant collection (`{1, 2}`, an array argument, a dictionary's values):
        /// only meaningful as the container of IN/CONTAINS or the bounds of BETWEEN.
        case collection([PredicateValue], isArray: Bool)
        /// A to-many key path: only meaningful under ANY/ALL, CONTAINS/IN, or SUBQUERY.
        case toMany(ToManyPath)
    }

    /// Resolves a key path from a scope.
    func resolve(_ path: [String], from start: SQLScope) throws -> Operand {
        var scope = start
        var index = 0
        while index < path.count {
            let key = path[index]
            let isLast = index == path.count - 1
            if key == "self" {
                index += 1
                continue
            }
            if key.hasPrefix("@") {
                throw SQLUnsupported("\(key) applies to a collection, and \(path[..<index].joined(separator: ".")) is not one")
            }
            if let attribute = scope.mapping.attribute(named: key) {
                guard isLast else {
                    throw SQLUnsupported("\(path.joined(separator: ".")) reads a key of an attribute value (KVC on the value)")
                }
                return .scalar(try attributeOperand(attribute, in: scope))
            }
            guard let relationship = scope.mapping.relationship(named: key) else {
                throw FetchError.unknownKeyPath(entity: scope.mapping.name, keyPath: path.joined(separator: "."), key: key)
            }
            if relationship.relationship.isToMany {
                let destination = try lookup(relationship.relationship.destination)
                return .toMany(ToManyPath(owner: scope, relationship: relationship, destination: destination, suffix: Array(path[(index + 1)...])))
            }
            guard case .foreignKey(let column, _, _) = relationship.storage, !column.isEmpty else {
                throw SQLUnsupported("\(key) is not stored in a column")
            }
            if isLast { return .scalar(try foreignKeyOperand(relationship, column: column, in: scope)) }
            scope = try join(scope, relationship, foreignKey: column)
            index += 1
        }
        return .scalar(selfOperand(scope))
    }

    /// An attribute's column.
    func attributeOperand(_ attribute: AttributeMapping, in scope: SQLScope) throws -> SQLOperand {
        guard let column = attribute.column else {
            throw SQLUnsupported("\(attribute.attribute.name) is transient (not stored)")
        }
        guard let kind = SQLValueKind(attribute.attribute.type) else {
            throw SQLUnsupported("\(attribute.attribute.name) has an undefined type")
        }
        // Its column holds a tagged blob (0x01 + bytes, or 0x02 + a file's name), not the
        // value: only the value read (from the file when it is kept in one) can be compared.
        if attribute.allowsExternalStorage {
            throw SQLUnsupported("\(attribute.attribute.name) allows external storage: its column holds a tagged blob, compared in memory")
        }
        return SQLOperand(
            fragment: .column(scope.alias, column), kind: kind, nullable: true, attributeType: attribute.attribute.type)
    }

    /// A to-one relationship's foreign key, compared as the destination object.
    func foreignKeyOperand(_ relationship: RelationshipMapping, column: String, in scope: SQLScope) throws -> SQLOperand {
        let destination = try lookup(relationship.relationship.destination)
        return SQLOperand(fragment: .column(scope.alias, column), kind: .object(table: destination.table), nullable: true)
    }

    /// SELF: the row's own key.
    func selfOperand(_ scope: SQLScope) -> SQLOperand {
        SQLOperand(
            fragment: .column(scope.alias, "Z_PK"), kind: .object(table: scope.mapping.table), nullable: scope.presence != nil)
    }

    /// Turns `to-many.@count` and `to-many.@min.key` (and friends) into scalar subqueries;
    /// other operands pass through.
    func collapseCollectionOperator(_ operand: Operand) throws -> Operand {
        guard case .toMany(let path) = operand, let first = path.suffix.first, first.hasPrefix("@") else { return operand }
        if first == "@count", path.suffix.count == 1 {
            return .scalar(try countOperand(path, extra: []))
        }
        if ["@min", "@max", "@sum"].contains(first), path.suffix.count == 2 {
            return .scalar(try aggregateOperand(path, function: first))
        }
        throw SQLUnsupported("\(first) over \(path.relationship.relationship.name) is evaluated in memory")
    }

    /// `(SELECT COUNT(*) FROM destination WHERE correlated [AND extra])`.
    func countOperand(_ path: ToManyPath, extra: [SQLFragment]) throws -> SQLOperand {
        let source = try elementSource(path, needsDestination: !extra.isEmpty)
        let subquery = SQLSubquery(
            result: .count, table: source.table, alias: source.alias, joins: source.joins,
            conditions: source.conditions + extra)
        return guarded(SQLOperand(fragment: .scalarSubquery(subquery), kind: .number, nullable: false), by: path.owner)
    }

    /// `(SELECT MIN(x) …)`, `MAX`, or `IFNULL(SUM(x), 0)` over one attribute of the elements.
    private func aggregateOperand(_ path: ToManyPath, function: String) throws -> SQLOperand {
        let key = path.suffix[1]
        guard let attribute = path.destination.attribute(named: key) else {
            if path.destination.relationship(named: key) != nil {
                throw SQLUnsupported("\(function) of a relationship is evaluated in memory")
            }
            throw FetchError.unknownKeyPath(
                entity: path.destination.name, keyPath: ([path.relationship.relationship.name] + path.suffix).joined(separator: "."), key: key)
        }
        let type = attribute.attribute.type
        let aggregate: SQLAggregate
        switch function {
        case "@min": aggregate = .min
        case "@max": aggregate = .max
        default:
            // Only whole numbers sum exactly the same way in SQL and in memory.
            guard type.isInteger || type == .boolean else {
                throw SQLUnsupported("@sum of \(type.xcodeName) values is evaluated in memory (rounding order)")
            }
            aggregate = .sum
        }
        let ((source, value), joins) = try inSubqueryLevel { level -> (ElementSource, SQLOperand) in
            let source = try elementSource(path, needsDestination: true)
            let element = SQLScope(alias: source.elementAlias, mapping: path.destination, level: level, presence: nil)
            return (source, try attributeOperand(attribute, in: element))
        }
        guard SQLValueKind.orderable(value.kind, value.kind) else {
            throw SQLUnsupported("\(function) of \(type.xcodeName) values is evaluated in memory")
        }
        let subquery = SQLSubquery(
            result: .aggregate(aggregate, value.fragment), table: source.table, alias: source.alias,
            joins: source.joins + joins, conditions: source.conditions)
        return guarded(
            SQLOperand(fragment: .scalarSubquery(subquery), kind: value.kind, nullable: aggregate != .sum, attributeType: type),
            by: path.owner)
    }

    /// Keeps a subquery's value nil when its owner row is missing (KVC on nil is nil).
    func guarded(_ operand: SQLOperand, by owner: SQLScope) -> SQLOperand {
        guard let presence = owner.presence else { return operand }
        var result = operand
        result.fragment = .nullWhenMissing(guard: presence, value: operand.fragment)
        result.nullable = true
        return result
    }
}
