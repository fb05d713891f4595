/// Compiles an `ObjectPredicate` over an entity into SQL fragments, leaving what SQL cannot
/// say exactly to the in-memory evaluator.
///
/// The walk follows Core Data's shapes (see `docs/predicate-sql.md`): attributes are
/// columns of `t0`; to-one key paths become LEFT JOINs on `FK = Z_PK` (so a nil
/// destination yields NULL, as KVC yields nil); to-many key paths, `@count`, ANY/ALL and
/// SUBQUERY become correlated subqueries; string operators with options call the functions
/// of ``PredicateSQLFunction``. Every condition keeps Foundation's two-valued logic: nil
/// compares as the evaluator says (`!=` is `IS NOT`), and a possibly-NULL condition under
/// `NOT` is written `IS NOT 1`.
///
/// A top-level AND is split: each conjunct SQL can express exactly goes to the WHERE
/// clause, the others form the residual predicate that the fetch evaluates on the rows
/// SQL returns. Anything else that cannot be expressed makes its whole conjunct residual.
final class PredicateSQLCompiler {
    /// The fetched entity's scope, `t0`.
    let root: SQLScope
    /// Looks up an entity's mapping by name (destinations of relationships).
    let lookup: (String) throws -> EntityMapping
    private var nextAlias = 1
    /// Joins per query level: 0 is the main query, deeper levels are open subqueries.
    private var levelJoins: [[SQLJoin]] = [[]]
    /// SUBQUERY variables in scope, bound to their element's table.
    var variables: [String: SQLScope] = [:]
    /// The joins added to scopes, in order, so a failed conjunct can take its joins back.
    private var joinLog: [(scope: SQLScope, key: String)] = []

    init(entity: EntityMapping, lookup: @escaping (String) throws -> EntityMapping) {
        root = SQLScope(alias: SQLTableAlias(index: 0), mapping: entity, level: 0, presence: nil)
        self.lookup = lookup
    }

    /// The to-one joins of the main query, in the order they were needed.
    var mainJoins: [SQLJoin] { levelJoins[0] }

    /// The result of compiling a fetch's predicate.
    struct Filter {
        /// Conditions for the WHERE clause (ANDed).
        var conditions: [SQLFragment] = []
        /// The conjuncts left to the in-memory evaluator, or nil when SQL does it all.
        var residual: ObjectPredicate?
        /// One line per residual conjunct: its text and why it stayed in memory.
        var notes: [String] = []
    }

    /// Compiles a predicate for the WHERE clause, splitting a top-level AND.
    func compileFilter(_ predicate: ObjectPredicate) throws -> Filter {
        var filter = Filter()
        var residual: [ObjectPredicate] = []
        for conjunct in PredicateSQLCompiler.conjuncts(of: predicate) {
            let mark = (joins: levelJoins[0].count, log: joinLog.count)
            do {
                let condition = try compile(conjunct, in: root)
                filter.conditions += PredicateSQLCompiler.terms(of: condition.fragment)
            } catch let unsupported as SQLUnsupported {
                rollBack(to: mark)
                residual.append(conjunct)
                filter.notes.append("\(conjunct.predicateFormat): \(unsupported.reason)")
            }
        }
        if !residual.isEmpty { filter.residual = residual.count == 1 ? residual[0] : .and(residual) }
        return filter
    }

    /// A condition as the terms of an AND list (a WHERE clause, a subquery's conditions).
    static func terms(of fragment: SQLFragment) -> [SQLFragment] {
        switch fragment {
        case .truth(true): return []
        case .and(let parts): return parts
        default: return [fragment]
        }
    }

    /// The operands of a top-level AND, nested ANDs flattened.
    static func conjuncts(of predicate: ObjectPredicate) -> [ObjectPredicate] {
        guard case .and(let parts) = predicate else { return [predicate] }
        return parts.flatMap(conjuncts(of:))
    }

    private func rollBack(to mark: (joins: Int, log: Int)) {
        for entry in joinLog[mark.log...] { entry.scope.joins[entry.key] = nil }
        joinLog.removeSubrange(mark.log...)
        levelJoins[0].removeSubrange(mark.joins...)
    }

    // MARK: - Predicates

    /// Compiles a whole predicate evaluated with `scope` as SELF.
    func compile(_ predicate: ObjectPredicate, in scope: SQLScope) throws -> SQLCondition {
        switch predicate {
        case .constant(let value):
            return .truth(value)
        case .comparison(let comparison):
            return try compile(comparison, in: scope)
        case .and(let parts):
            return .and(try parts.map { try compile($0, in: scope) })
        case .or(let parts):
            return .or(try parts.map { try compile($0, in: scope) })
        case .not(let part):
            return try compile(part, in: scope).negated
        }
    }

    // MARK: - Tables

    /// A new table alias.
    func makeAlias() -> SQLTableAlias {
        defer { nextAlias += 1 }
        return SQLTableAlias(index: nextAlias)
    }

    /// The most to-one joins one SELECT of a compiled predicate has: SQLite joins at most
    /// 64 tables, and a level also has its own table (and a to-many's join table and
    /// destination). A predicate that needs more is evaluated in memory.
    static let maximumJoins = 60

    /// The scope of a to-one destination, joined once per scope and relationship.
    func join(_ scope: SQLScope, _ relationship: RelationshipMapping, foreignKey column: String) throws -> SQLScope {
        let key = relationship.relationship.name
        if let existing = scope.joins[key] { return existing }
        guard levelJoins[scope.level].count < PredicateSQLCompiler.maximumJoins else {
            throw SQLUnsupported(
                "it needs more than \(PredicateSQLCompiler.maximumJoins) to-one joins in one SELECT (SQLite joins at most 64 tables)")
        }
        let destination = try lookup(relationship.relationship.destination)
        let alias = makeAlias()
        let joined = SQLScope(alias: alias, mapping: destination, level: scope.level, presence: .column(alias, "Z_PK"))
        levelJoins[scope.level].append(
            SQLJoin(alias: alias, table: destination.table, foreignKey: .column(scope.alias, column), isOuter: true))
        scope.joins[key] = joined
        joinLog.append((scope, key))
        return joined
    }

    /// Opens a subquery level, runs `body` in it, and returns the joins it needed.
    func inSubqueryLevel<T>(_ body: (Int) throws -> T) rethrows -> (T, [SQLJoin]) {
        levelJoins.append([])
        defer { levelJoins.removeLast() }
        let result = try body(levelJoins.count - 1)
        return (result, levelJoins[levelJoins.count - 1])
    }

    /// Adds a join to an open subquery level (a join table's destination).
    func addJoin(_ join: SQLJoin, level: Int) {
        levelJoins[level].append(join)
    }
}

/// A table occurrence a key path is evaluated from: the fetched entity, a to-one
/// destination, or the element of a to-many subquery.
final class SQLScope {
    let alias: SQLTableAlias
    let mapping: EntityMapping
    /// The query level whose FROM clause holds this table.
    let level: Int
    /// `tN.Z_PK` when the row may be missing (reached through a LEFT JOIN), else nil.
    let presence: SQLFragment?
    /// The to-one destinations already joined from here, by relationship name.
    var joins: [String: SQLScope] = [:]

    init(alias: SQLTableAlias, mapping: EntityMapping, level: Int, presence: SQLFragment?) {
        self.alias = alias
        self.mapping = mapping
        self.level = level
        self.presence = presence
    }
}
