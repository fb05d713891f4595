/// Writes the predicate compiler's fragments as SQL text, collecting the bound values in
/// the order their `?` appear.
///
/// This is where predicate SQL becomes text: table aliases are `t<N>`, values are always
/// parameters, and the functions are those the store registers (``PredicateSQLFunction``).
struct SQLRenderer {
    /// The values for the `?` written so far, in order.
    private(set) var bindings: [SQLiteValue] = []

    mutating func render(_ fragment: SQLFragment) -> String {
        switch fragment {
        case .column(let alias, let column):
            return "\(name(alias)).\(column)"
        case .parameter(let value):
            bindings.append(value)
            return "?"
        case .truth(let value):
            return value ? "1" : "0"
        case .comparison(let left, let op, let right):
            let lhs = render(left)
            let rhs = render(right)
            return "\(lhs) \(op.rawValue) \(rhs)"
        case .isNull(let value):
            return "\(render(value)) IS NULL"
        case .isNotNull(let value):
            return "\(render(value)) IS NOT NULL"
        case .inList(let value, let items):
            let subject = render(value)
            return "\(subject) IN (\(items.map { render($0) }.joined(separator: ", ")))"
        case .and(let parts):
            return "(" + parts.map { render($0) }.joined(separator: " AND ") + ")"
        case .or(let parts):
            return "(" + parts.map { render($0) }.joined(separator: " OR ") + ")"
        case .not(let inner):
            return "NOT " + parenthesized(inner)
        case .isNotTrue(let inner):
            return parenthesized(inner) + " IS NOT 1"
        case .function(let function, let arguments):
            return "\(function.name)(\(arguments.map { render($0) }.joined(separator: ", ")))"
        case .holdsBytes(let text, let part):
            return "instr(\(render(text)), \(render(part))) > 0"
        case .exists(let subquery):
            return "EXISTS (\(render(subquery)))"
        case .scalarSubquery(let subquery):
            return "(\(render(subquery)))"
        case .nullWhenMissing(let guardColumn, let value):
            return "CASE WHEN \(render(guardColumn)) IS NULL THEN NULL ELSE \(render(value)) END"
        case .groupAggregate(let function, let value):
            return "\(Self.sqlName(function))(\(value.map { render($0) } ?? "*"))"
        }
    }

    private static func sqlName(_ function: ExpressionDescription.Function) -> String {
        switch function {
        case .count: "COUNT"
        case .sum: "SUM"
        case .average: "AVG"
        case .min: "MIN"
        case .max: "MAX"
        }
    }

    /// `(x)`, unless x already brings its own parentheses.
    private mutating func parenthesized(_ fragment: SQLFragment) -> String {
        switch fragment {
        case .and, .or, .exists, .scalarSubquery: return render(fragment)
        default: return "(" + render(fragment) + ")"
        }
    }

    mutating func render(_ subquery: SQLSubquery) -> String {
        let result: String
        switch subquery.result {
        case .one: result = "1"
        case .count: result = "COUNT(*)"
        case .aggregate(.sum, let value): result = "IFNULL(SUM(\(render(value))), 0)"
        case .aggregate(let function, let value): result = "\(function.rawValue)(\(render(value)))"
        }
        var sql = "SELECT \(result) FROM \(subquery.table) \(name(subquery.alias))"
        for join in subquery.joins { sql += " " + render(join) }
        if !subquery.conditions.isEmpty {
            sql += " WHERE " + subquery.conditions.map { render($0) }.joined(separator: " AND ")
        }
        return sql
    }

    mutating func render(_ join: SQLJoin) -> String {
        "\(join.isOuter ? "LEFT JOIN" : "JOIN") \(join.table) \(name(join.alias)) ON \(name(join.alias)).Z_PK = \(render(join.foreignKey))"
    }

    /// Appends values bound by text the caller writes itself (`Z_ENT IN (?, ?)`, `LIMIT ?`).
    mutating func bind(_ values: [SQLiteValue]) -> [String] {
        bindings += values
        return values.map { _ in "?" }
    }

    func name(_ alias: SQLTableAlias) -> String { "t\(alias.index)" }
}
