/// To-many relationships: ANY/ALL (EXISTS / NOT EXISTS), CONTAINS and IN, SUBQUERY counts,
/// all as subqueries correlated with the owning row through the inverse key or the join table.
extension PredicateSQLCompiler {
    /// Where the elements of a to-many relationship come from inside a subquery.
    struct ElementSource {
        /// The subquery's first table (the destination's, or the join table) and its alias.
        var table: String
        var alias: SQLTableAlias
        /// The destination rows' alias (the first alias, or the join's).
        var elementAlias: SQLTableAlias
        /// The destination joined behind a join table.
        var joins: [SQLJoin]
        /// The correlation with the owner (and the destination's entities, when it shares a table).
        var conditions: [SQLFragment]
    }

    func elementSource(_ path: ToManyPath, needsDestination: Bool) throws -> ElementSource {
        let ownerKey = SQLFragment.column(path.owner.alias, "Z_PK")
        switch path.relationship.storage {
        case .inverseForeignKey(let table, let column, _, _):
            let alias = makeAlias()
            var conditions: [SQLFragment] = [.comparison(.column(alias, column), .equal, ownerKey)]
            if !path.destination.ownsWholeTable {
                let numbers = path.relationship.destinationNumbers.map { SQLFragment.parameter(.integer(Int64($0))) }
                conditions.append(.inList(.column(alias, "Z_ENT"), numbers))
            }
            return ElementSource(table: table, alias: alias, elementAlias: alias, joins: [], conditions: conditions)
        case .joinTable(let join):
            let alias = makeAlias()
            var source = ElementSource(
                table: join.table, alias: alias, elementAlias: alias, joins: [],
                conditions: [.comparison(.column(alias, join.sourceColumn), .equal, ownerKey)])
            if needsDestination {
                source.elementAlias = makeAlias()
                source.joins.append(SQLJoin(
                    alias: source.elementAlias, table: path.destination.table,
                    foreignKey: .column(alias, join.destinationColumn), isOuter: false))
            }
            return source
        case .foreignKey, .notStored:
            throw SQLUnsupported("\(path.relationship.relationship.name) is not stored as a to-many relationship")
        }
    }

    /// A subquery over the elements, with `body` giving the condition on one element.
    func elementSubquery(_ path: ToManyPath, result: SQLSubquery.Result, _ body: (SQLScope) throws -> SQLCondition) throws
        -> SQLSubquery
    {
        let source = try elementSource(path, needsDestination: true)
        let (condition, joins) = try inSubqueryLevel { level in
            try body(SQLScope(alias: source.elementAlias, mapping: path.destination, level: level, presence: nil))
        }
        let conditions = source.conditions + PredicateSQLCompiler.terms(of: condition.fragment)
        return SQLSubquery(
            result: result, table: source.table, alias: source.alias, joins: source.joins + joins, conditions: conditions)
    }

    /// The value of one element: the key path after the relationship, which must not
    /// cross a second to-many (KVC does not flatten, so that compares arrays in memory).
    func elementValue(_ path: ToManyPath, _ element: SQLScope) throws -> SQLOperand {
        guard case .scalar(let value) = try collapseCollectionOperator(try resolve(path.suffix, from: element)) else {
            throw SQLUnsupported("a key path through two to-many relationships compares arrays (evaluated in memory)")
        }
        return value
    }

    /// `ANY path op right` as EXISTS, `ALL path op right` as NOT EXISTS of a counterexample.
    func compileQuantified(_ comparison: ComparisonPredicate, in scope: SQLScope) throws -> SQLCondition {
        guard case .toMany(let path) = try operand(comparison.left, in: scope) else {
            throw SQLUnsupported("ANY/ALL over something that is not a to-many key path is evaluated in memory")
        }
        let right = try valueOperand(comparison.right, in: scope)
        let isAll = comparison.modifier == .all
        let subquery = try elementSubquery(path, result: .one) { element in
            let value = try elementValue(path, element)
            let condition = try compareElement(value, comparison.comparisonOperator, right, options: comparison.options)
            return isAll ? condition.negated : condition
        }
        return SQLCondition(fragment: isAll ? .not(.exists(subquery)) : .exists(subquery), nullable: false)
    }

    /// One element's value against the right side of a quantified comparison.
    private func compareElement(_ value: SQLOperand, _ op: ComparisonOperator, _ right: Operand, options: ComparisonOptions) throws
        -> SQLCondition
    {
        switch right {
        case .scalar(let other):
            return try compare(value, op, other, options: options)
        case .collection(let items, let isArray):
            return try compare(value, op, collection: items, isArray: isArray, options: options)
        case .toMany:
            throw SQLUnsupported("comparing with a to-many key path is evaluated in memory")
        }
    }

    /// `path CONTAINS x` / `x IN path`: some element equals x (a nil x is never contained).
    func anyElement(of path: ToManyPath, equals other: Operand, options: ComparisonOptions) throws -> SQLCondition {
        guard case .scalar(let value) = other else {
            throw SQLUnsupported("membership of a collection in a to-many relationship is evaluated in memory")
        }
        if value.kind == .null { return .truth(false) }
        let subquery = try elementSubquery(path, result: .one) { element in
            equality(try elementValue(path, element), value, options: options)
        }
        let exists = SQLCondition(fragment: .exists(subquery), nullable: false)
        guard value.nullable else { return exists }
        return .and([SQLCondition(fragment: .isNotNull(value.fragment), nullable: false), exists])
    }

    /// `SUBQUERY(collection, $v, predicate).@count`: a COUNT over the elements where the
    /// predicate holds, with `$v` (and SELF) bound to the element. A nil collection counts 0,
    /// as the evaluator treats it as empty.
    func subqueryCount(_ collection: ObjectExpression, _ variable: String, _ predicate: ObjectPredicate, in scope: SQLScope) throws
        -> SQLOperand
    {
        guard case .toMany(let path) = try operand(collection, in: scope), path.suffix.isEmpty else {
            throw SQLUnsupported("SUBQUERY over \(collection.expressionFormat) is evaluated in memory")
        }
        let subquery = try elementSubquery(path, result: .count) { element in
            let saved = variables[variable]
            variables[variable] = element
            defer { variables[variable] = saved }
            return try compile(predicate, in: element)
        }
        return SQLOperand(fragment: .scalarSubquery(subquery), kind: .number, nullable: false)
    }
}
