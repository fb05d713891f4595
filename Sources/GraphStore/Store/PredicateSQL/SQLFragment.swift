/// A piece of a WHERE clause (or of a select list) as a tree, produced by the predicate
/// SQL compiler and turned into text by `Store/`'s renderer.
///
/// The compiler decides *what* to ask SQLite (which columns, which subqueries, which
/// registered functions); the store alone writes SQL text. Values travel as
/// `.parameter` and are always bound, never written into the text.
indirect enum SQLFragment: Sendable {
    /// `tN.COLUMN`.
    case column(SQLTableAlias, String)
    /// A bound value (`?`).
    case parameter(SQLiteValue)
    /// `1` or `0`: a condition decided while compiling.
    case truth(Bool)
    /// `left op right`.
    case comparison(SQLFragment, SQLComparisonOperator, SQLFragment)
    /// `x IS NULL`.
    case isNull(SQLFragment)
    /// `x IS NOT NULL`.
    case isNotNull(SQLFragment)
    /// `x IN (a, b, …)`.
    case inList(SQLFragment, [SQLFragment])
    /// `(a AND b AND …)`.
    case and([SQLFragment])
    /// `(a OR b OR …)`.
    case or([SQLFragment])
    /// `NOT x`, for a condition that is never NULL.
    case not(SQLFragment)
    /// `(x) IS NOT 1`: the negation of a condition that may be NULL, true when it is NULL
    /// (so that `NOT` keeps the in-memory evaluator's two-valued logic).
    case isNotTrue(SQLFragment)
    /// A function GraphStore registers on the connection: `GS_BEGINSWITH(a, b, options)`.
    case function(PredicateSQLFunction, [SQLFragment])
    /// `instr(text, part) > 0`: the text holds the part's bytes (SQLite's own substring
    /// search, a prefilter in front of an exact string function).
    case holdsBytes(SQLFragment, SQLFragment)
    /// `EXISTS (SELECT 1 …)`.
    case exists(SQLSubquery)
    /// `(SELECT COUNT(*) …)` or `(SELECT MAX(x) …)`: a correlated scalar subquery.
    case scalarSubquery(SQLSubquery)
    /// `CASE WHEN guard IS NULL THEN NULL ELSE value END`: a value that must stay nil when
    /// the row it hangs off is missing (a to-many reached through a nil to-one).
    case nullWhenMissing(guard: SQLFragment, value: SQLFragment)
    /// `COUNT(*)`, `COUNT(x)`, `SUM(x)`, `AVG(x)`, `MIN(x)`, `MAX(x)`: an aggregate over the
    /// rows of a `GROUP BY` group (a dictionary fetch's ``ExpressionDescription``).
    case groupAggregate(ExpressionDescription.Function, SQLFragment?)
}

/// A table occurrence in a query: rendered `t0` (the fetched entity), `t1`, `t2`, ….
struct SQLTableAlias: Hashable, Sendable {
    /// The number after the `t`.
    var index: Int
}

/// The comparison operators the compiler emits.
enum SQLComparisonOperator: String, Sendable {
    case equal = "="
    case notEqual = "<>"
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    /// `IS`: equal, with NULL equal to NULL (Foundation's `nil == nil`).
    case isSame = "IS"
    /// `IS NOT`: the exact negation of `IS`, never NULL.
    case isNotSame = "IS NOT"
}

/// A to-one join: `LEFT JOIN table alias ON alias.Z_PK = foreignKey`, or an inner join of
/// a join table's destination inside a to-many subquery.
struct SQLJoin: Sendable {
    /// The joined table's alias.
    var alias: SQLTableAlias
    /// The joined table.
    var table: String
    /// The column holding the joined row's `Z_PK` (a foreign key or a join-table column).
    var foreignKey: SQLFragment
    /// LEFT (to-one: a missing destination keeps the row, with NULLs) or INNER.
    var isOuter: Bool
}

/// A correlated subquery over the destinations of a to-many relationship.
struct SQLSubquery: Sendable {
    /// What the subquery selects.
    enum Result: Sendable {
        /// `SELECT 1` (under EXISTS).
        case one
        /// `SELECT COUNT(*)`.
        case count
        /// `SELECT MIN(x)` / `MAX(x)` / `IFNULL(SUM(x), 0)`.
        case aggregate(SQLAggregate, SQLFragment)
    }

    var result: Result
    /// The first table and its alias (the destination table, or the join table).
    var table: String
    var alias: SQLTableAlias
    /// Further joins: the destination behind a join table, then to-one joins.
    var joins: [SQLJoin]
    /// ANDed conditions: the correlation with the outer row first.
    var conditions: [SQLFragment]
}

/// Aggregates a to-many key path can compile to.
enum SQLAggregate: String, Sendable {
    case min = "MIN"
    case max = "MAX"
    case sum = "SUM"
}
