/// A fetch compiled for one kind of result (from a ``QueryDefinition``): the statement's text and values, how
/// to read its rows, and the part of the predicate left to the in-memory evaluator.
///
/// Shapes (`t0` is the fetched entity's table):
///
///     SELECT t0.Z_PK, t0.Z_ENT, t0.Z_OPT, t0.Z… [, sort values]     -- objects
///     SELECT t0.Z_PK, t0.Z_ENT [, sort values]                       -- object IDs, batches
///     SELECT COUNT(*)                                                -- count
///     SELECT [DISTINCT] t0.ZA, t1.ZB, …, COUNT(*), AVG(t0.ZC)        -- dictionaries
///     FROM ZENTITY t0 LEFT JOIN ZDEST t1 ON t1.Z_PK = t0.ZREL …      -- to-one key paths
///     WHERE t0.Z_ENT IN (?, …) AND <compiled conjuncts>              -- see familyCondition: not for an entity
///                                                                    -- alone in its table, nor a hierarchy's objects
///     GROUP BY t1.ZB                                                 -- grouped dictionaries
///     ORDER BY <sort keys>, t0.Z_PK LIMIT ? OFFSET ?
///
/// Sort values are selected with the rows so that unsaved objects can be merged into the
/// stored order without reading anything again.
struct FetchQuery {
    /// What each row of the statement holds.
    enum Selection {
        case rows, keys, count, properties
    }

    /// One ORDER BY key, as the merge of unsaved objects needs it.
    struct SortColumn {
        var keyPath: String
        var ascending: Bool
        /// Non-empty when the SQL sorts by `GS_FOLD(value, folding)`.
        var folding: ComparisonOptions
        var attributeType: AttributeType
    }

    /// One property of a dictionary result.
    struct PropertyColumn {
        var name: String
        /// The attribute type, or nil for a to-one relationship (two columns: key, entity).
        var attributeType: AttributeType?
    }

    var sql: String
    var bindings: [SQLiteValue]
    var selection: Selection
    /// The fetched entity.
    var mapping: EntityMapping
    /// The entities whose rows qualify (the entity, and its sub-entities unless excluded).
    var family: [EntityMapping]
    /// Reads full rows (selection `.rows`).
    var reader: RowReader?
    /// The result column where the sort values start.
    var sortStart: Int
    var sorts: [SortColumn]
    var properties: [PropertyColumn]
    /// The conjuncts SQL could not express, evaluated in memory on each row it returns.
    var residual: ObjectPredicate?
    /// Why each residual conjunct stayed in memory.
    var notes: [String]
    /// Whether the SQL has a WHERE clause (a restriction is ANDed to it).
    var hasConditions: Bool
    /// Whether the SQL joins other tables (for to-one key paths).
    var hasJoins = false
    /// The WHERE clause's conditions (over alias `t0`), nil without any: a batch request
    /// without joins runs them in its own DELETE or UPDATE.
    var conditionsSQL: String?
}

extension PersistentStore {
    /// The compiled query of a definition, from the store's cache when it has one (see
    /// ``QueryCache``). Without a window (see ``FetchQuery/windowed(limit:offset:)``).
    ///
    /// A predicate with a part SQL cannot express is only ever finished in memory on whole
    /// rows, so such a definition compiles to a `.rows` query whatever its selection: a
    /// fetch compiles its predicate once.
    func fetchQuery(for definition: QueryDefinition) throws -> FetchQuery {
        try queryCache.query(for: definition) { try compileFetchQuery($0) }
    }

    private func compileFetchQuery(_ definition: QueryDefinition) throws -> FetchQuery {
        let mapping = try self.mapping(for: definition.entityName)
        let family = definition.includesSubentities ? self.family(of: mapping) : [mapping]
        let compiler = PredicateSQLCompiler(entity: mapping) { [unowned self] name in try self.mapping(for: name) }
        let filter = try definition.predicate.map { try compiler.compileFilter($0) } ?? PredicateSQLCompiler.Filter()
        let selection = filter.residual == nil ? definition.selection : .rows
        let (sortKeys, sortExpressions) = try compileSortKeys(definition, selection: selection, compiler)
        var properties: [(String, PredicateSQLCompiler.PropertySelection)] = []
        var groups: [PredicateSQLCompiler.PropertySelection] = []
        if definition.selection == .properties {
            // Checked even when a residual makes the query read rows instead, on a compiler of
            // their own then, so that their joins stay out of the rows' SQL.
            let propertyCompiler = selection == .properties ? compiler : PredicateSQLCompiler(entity: mapping, lookup: compiler.lookup)
            try checkGrouping(definition, entity: mapping.name)
            properties = try definition.propertiesToFetch.map { property in
                switch property {
                case .keyPath(let keyPath):
                    return (keyPath, try propertyCompiler.compileProperty(keyPath))
                case .expression(let expression):
                    let (fragment, type) = try propertyCompiler.compileAggregate(expression)
                    return (expression.name, .attribute(fragment, type))
                }
            }
            groups = try definition.propertiesToGroupBy.map { try propertyCompiler.compileProperty($0) }
        }
        var renderer = SQLRenderer()
        var query = FetchQuery(
            sql: "", bindings: [], selection: selection, mapping: mapping, family: family, reader: nil, sortStart: 0,
            sorts: zip(sortKeys, sortExpressions).map {
                FetchQuery.SortColumn(keyPath: $0.keyPath, ascending: $0.ascending, folding: $1.folding, attributeType: $1.attributeType)
            },
            properties: [], residual: filter.residual, notes: filter.notes, hasConditions: false)
        var columns: [String]
        switch selection {
        case .rows:
            let reader = rowReader(family: family)
            query.reader = reader
            columns = [reader.selectList(alias: "t0")]
            query.sortStart = 3 + reader.columns.count
        case .keys:
            columns = ["t0.Z_PK", "t0.Z_ENT"]
            query.sortStart = 2
        case .count:
            columns = ["COUNT(*)"]
        case .properties:
            columns = []
            for (name, property) in properties {
                switch property {
                case .attribute(let fragment, let type):
                    columns.append(renderer.render(fragment))
                    query.properties.append(FetchQuery.PropertyColumn(name: name, attributeType: type))
                case .object(let key, let entity):
                    columns.append(renderer.render(key))
                    columns.append(renderer.render(entity))
                    query.properties.append(FetchQuery.PropertyColumn(name: name, attributeType: nil))
                }
            }
        }
        if selection == .rows || selection == .keys {
            columns += sortExpressions.map { renderer.render($0.fragment) }
        }
        let distinct = selection == .properties && definition.returnsDistinctResults ? "DISTINCT " : ""
        var sql = "SELECT \(distinct)\(columns.joined(separator: ", ")) FROM \(mapping.table) t0"
        for join in compiler.mainJoins { sql += " " + renderer.render(join) }
        var conditions: [String] = []
        if let filter = familyCondition(family, selection: selection, includesSubentities: definition.includesSubentities) {
            conditions.append("\(mapping.keys.integer("Z_ENT", alias: "t0")) IN (\(renderer.bind(filter).joined(separator: ", ")))")
        }
        conditions += filter.conditions.map { renderer.render($0) }
        if !conditions.isEmpty {
            sql += " WHERE " + conditions.joined(separator: " AND ")
            query.hasConditions = true
            query.conditionsSQL = conditions.joined(separator: " AND ")
        }
        query.hasJoins = !compiler.mainJoins.isEmpty
        if selection == .properties, !groups.isEmpty {
            sql += " GROUP BY " + groups.flatMap { group in
                switch group {
                case .attribute(let fragment, _): [renderer.render(fragment)]
                // A constant entity number (a destination without sub-entities) splits no group.
                case .object(let key, .parameter): [renderer.render(key)]
                case .object(let key, let entity): [renderer.render(key), renderer.render(entity)]
                }
            }.joined(separator: ", ")
        }
        if selection != .count, !sortExpressions.isEmpty {
            var keys = zip(sortExpressions, sortKeys).map { renderer.render($0.fragment) + ($1.ascending ? "" : " DESC") }
            // A unique last key makes the order total, so windows and merges are stable.
            if selection != .properties { keys.append(mapping.keys.integer("Z_PK", alias: "t0")) }
            sql += " ORDER BY " + keys.joined(separator: ", ")
        }
        query.sql = sql
        query.bindings = renderer.bindings
        return query
    }
}

extension PersistentStore {
    /// The sort keys SQL orders by, compiled: a key naming an aggregate of a dictionary
    /// fetch orders by that aggregate (and is left to memory when the query reads rows).
    private func compileSortKeys(
        _ definition: QueryDefinition, selection: FetchQuery.Selection, _ compiler: PredicateSQLCompiler
    ) throws -> ([SortKey], [PredicateSQLCompiler.SortExpression]) {
        var aggregates: [String: ExpressionDescription] = [:]
        if definition.selection == .properties {
            for case .expression(let expression) in definition.propertiesToFetch { aggregates[expression.name] = expression }
        }
        var keys: [SortKey] = []
        var expressions: [PredicateSQLCompiler.SortExpression] = []
        for key in definition.sortKeys {
            if let aggregate = aggregates[key.keyPath] {
                guard selection == .properties else { continue }
                let (fragment, type) = try compiler.compileAggregate(aggregate)
                expressions.append(PredicateSQLCompiler.SortExpression(fragment: fragment, folding: [], attributeType: type))
            } else {
                expressions.append(try compiler.compileSortKey(key.keyPath, caseInsensitive: key.caseInsensitive))
            }
            keys.append(key)
        }
        return (keys, expressions)
    }

    /// Core Data's rule for grouped and aggregated dictionaries: every key path fetched is
    /// grouped by, so each result row has one value for it (and so is every sort key, or it
    /// names an aggregate); and no two properties share a name.
    private func checkGrouping(_ definition: QueryDefinition, entity: String) throws {
        // Each property is one key of the result dictionaries.
        var names = Set<String>()
        for property in definition.propertiesToFetch where !names.insert(property.name).inserted {
            throw FetchError.invalidProperty(entity: entity, keyPath: property.name, reason: "two properties to fetch have this name")
        }
        let hasAggregates = definition.propertiesToFetch.contains { if case .expression = $0 { true } else { false } }
        guard hasAggregates || !definition.propertiesToGroupBy.isEmpty else { return }
        for case .keyPath(let keyPath) in definition.propertiesToFetch where !definition.propertiesToGroupBy.contains(keyPath) {
            throw FetchError.invalidProperty(
                entity: entity, keyPath: keyPath, reason: "with aggregates or groups, a fetched key path must be in propertiesToGroupBy")
        }
        // A group has one value to sort by only for what it is grouped by, and its aggregates.
        for key in definition.sortKeys where !definition.propertiesToGroupBy.contains(key.keyPath) && !names.contains(key.keyPath) {
            throw FetchError.invalidSortKey(
                entity: entity, keyPath: key.keyPath, reason: "with aggregates or groups, sort by a key path of propertiesToGroupBy or an aggregate's name")
        }
    }

    /// The entity numbers a query filters `Z_ENT` on, or nil for none. Objects and IDs are
    /// read as Core Data reads them: no filter for an entity alone in its table (every row
    /// is one of its objects) nor for a whole hierarchy (every row is read, and those of no
    /// entity of it are left out as they come); a count filters a hierarchy, so that it
    /// counts the objects such a fetch reads, and so do dictionaries (their rows are grouped
    /// and aggregated in SQL, where no row can be left out afterwards).
    fileprivate func familyCondition(_ family: [EntityMapping], selection: FetchQuery.Selection, includesSubentities: Bool) -> [SQLiteValue]? {
        guard let first = family.first, !first.isAloneInTable else { return nil }
        if selection != .count, selection != .properties, includesSubentities, first.ownsWholeTable { return nil }
        return family.map { SQLiteValue.integer(Int64($0.number)) }
    }
}

extension FetchQuery {
    /// The query with `LIMIT ? OFFSET ?` (the caller may widen the request's window to
    /// make room for unsaved changes or for rows an in-memory residual rejects).
    func windowed(limit: Int?, offset: Int) -> FetchQuery {
        guard selection != .count, limit != nil || offset > 0 else { return self }
        var query = self
        query.sql += " LIMIT ? OFFSET ?"
        query.bindings += [.integer(Int64(limit ?? -1)), .integer(Int64(offset))]
        return query
    }

    /// A count restricted to the rows with these keys (the rows a context's unsaved changes
    /// take out of a stored count): the same conditions, and `t0.Z_PK IN (…)`.
    func restricted(toKeys keys: [Int64]) -> FetchQuery {
        assert(selection == .count, "only a count (no ORDER BY, no window) is restricted to keys")
        var query = self
        query.sql += (hasConditions ? " AND " : " WHERE ") + "\(mapping.keys.integer("Z_PK", alias: "t0")) IN (\(Array(repeating: "?", count: keys.count).joined(separator: ", ")))"
        query.bindings += keys.map { .integer($0) }
        query.hasConditions = true
        return query
    }
}
