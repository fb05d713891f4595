/// Comparisons: dispatch on the operands' shapes, then equality, ordering, IN and BETWEEN
/// with Foundation's nil and typing rules.
extension PredicateSQLCompiler {
    func compile(_ comparison: ComparisonPredicate, in scope: SQLScope) throws -> SQLCondition {
        if PredicateSQLCompiler.isConstant(comparison.left), PredicateSQLCompiler.isConstant(comparison.right) {
            return .truth(try evaluateConstant(comparison))
        }
        if comparison.modifier != .direct { return try compileQuantified(comparison, in: scope) }
        let left = try valueOperand(comparison.left, in: scope)
        let right = try valueOperand(comparison.right, in: scope)
        let op = comparison.comparisonOperator
        let options = comparison.options
        switch (left, right) {
        case (.toMany(let path), _) where op == .contains:
            return try anyElement(of: path, equals: right, options: options)
        case (_, .toMany(let path)) where op == .in:
            return try anyElement(of: path, equals: left, options: options)
        case (.toMany, _), (_, .toMany):
            throw SQLUnsupported("a to-many key path compared with \(op.symbol) is evaluated in memory (use ANY, ALL or SUBQUERY)")
        case (.scalar(let value), .collection(let items, let isArray)):
            return try compare(value, op, collection: items, isArray: isArray, options: options)
        case (.collection(let items, _), .scalar(let value)) where op == .contains:
            return try inList(value, items, options: options)
        case (.scalar(let a), .scalar(let b)):
            return try compare(a, op, b, options: options)
        default:
            throw SQLUnsupported("\(op.symbol) between these values is evaluated in memory")
        }
    }

    /// A comparison without key paths, decided now.
    private func evaluateConstant(_ comparison: ComparisonPredicate) throws -> Bool {
        do {
            return try PredicateEvaluator(variables: [:]).evaluate(comparison, on: .null)
        } catch {
            throw SQLUnsupported("raises when evaluated: \(error)")
        }
    }

    /// A scalar against a constant collection: IN, BETWEEN.
    func compare(_ value: SQLOperand, _ op: ComparisonOperator, collection items: [PredicateValue], isArray: Bool,
        options: ComparisonOptions) throws -> SQLCondition
    {
        switch op {
        case .in:
            return try inList(value, items, options: options)
        case .between where isArray && items.count == 2:
            return try between(value, items[0], items[1], options: options)
        default:
            throw SQLUnsupported("\(op.symbol) with a collection on the right is evaluated in memory")
        }
    }

    /// Two scalar values.
    func compare(_ a: SQLOperand, _ op: ComparisonOperator, _ b: SQLOperand, options: ComparisonOptions) throws -> SQLCondition {
        switch op {
        case .equalTo:
            return equality(a, b, options: options)
        case .notEqualTo:
            return inequality(a, b, options: options)
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            return try ordering(a, op, b, options: options)
        case .beginsWith, .endsWith, .like, .matches, .contains:
            return try stringOperation(a, op, b, options: options)
        case .in:
            // A scalar on the right: a substring test (both strings), else Foundation raises.
            return try stringOperation(b, .contains, a, options: options)
        case .between, .utiConformsTo, .utiEquals:
            throw SQLUnsupported("\(op.symbol) with these operands is evaluated in memory")
        }
    }

    /// The folding options that change a string comparison: `[n]` means none; `[l]` is ignored.
    static func folding(_ options: ComparisonOptions) -> ComparisonOptions {
        options.contains(.normalized) ? [] : options.intersection([.caseInsensitive, .diacriticInsensitive])
    }

    /// `==` as `isEqual:`: nil equals only nil, values of different kinds are never equal.
    func equality(_ a: SQLOperand, _ b: SQLOperand, options: ComparisonOptions) -> SQLCondition {
        if a.kind == .null, b.kind == .null { return .truth(true) }
        if b.kind == .null { return SQLCondition(fragment: .isNull(a.fragment), nullable: false) }
        if a.kind == .null { return SQLCondition(fragment: .isNull(b.fragment), nullable: false) }
        guard a.kind == b.kind else {
            if a.isConstant || b.isConstant { return .truth(false) }
            return .and([SQLCondition(fragment: .isNull(a.fragment), nullable: false), SQLCondition(fragment: .isNull(b.fragment), nullable: false)])
        }
        let folding = PredicateSQLCompiler.folding(options)
        if a.kind == .string, !folding.isEmpty {
            return SQLCondition(fragment: .function(.equals, [a.fragment, b.fragment, optionsParameter(options)]), nullable: false)
        }
        if !a.isConstant, !b.isConstant {
            return SQLCondition(fragment: .comparison(a.fragment, .isSame, b.fragment), nullable: false)
        }
        return SQLCondition(fragment: .comparison(a.fragment, .equal, b.fragment), nullable: a.nullable || b.nullable)
    }

    /// `!=`: the exact negation of `==`, so a nil value differs from every non-nil one
    /// (unlike Core Data's SQLite store, whose `<>` drops NULL rows).
    func inequality(_ a: SQLOperand, _ b: SQLOperand, options: ComparisonOptions) -> SQLCondition {
        let folding = PredicateSQLCompiler.folding(options)
        let plain = a.kind == b.kind && a.kind != .null && !(a.kind == .string && !folding.isEmpty)
        if plain { return SQLCondition(fragment: .comparison(a.fragment, .isNotSame, b.fragment), nullable: false) }
        if b.kind == .null, a.kind != .null { return SQLCondition(fragment: .isNotNull(a.fragment), nullable: false) }
        if a.kind == .null, b.kind != .null { return SQLCondition(fragment: .isNotNull(b.fragment), nullable: false) }
        return equality(a, b, options: options).negated
    }

    /// `< <= > >=`: nil is only `<=`/`>=` nil; ordering values of different kinds raises in
    /// memory, so such comparisons are left to it.
    func ordering(_ a: SQLOperand, _ op: ComparisonOperator, _ b: SQLOperand, options: ComparisonOptions) throws -> SQLCondition {
        let inclusive = op == .lessThanOrEqualTo || op == .greaterThanOrEqualTo
        if a.kind == .null || b.kind == .null {
            if a.kind == .null, b.kind == .null { return .truth(inclusive) }
            let other = a.kind == .null ? b : a
            return inclusive ? SQLCondition(fragment: .isNull(other.fragment), nullable: false) : .truth(false)
        }
        guard SQLValueKind.orderable(a.kind, b.kind) else {
            throw SQLUnsupported("ordering \(a.kind) against \(b.kind) is evaluated in memory (it raises there)")
        }
        let sqlOperator = PredicateSQLCompiler.sqlOperator(op)
        var condition: SQLCondition
        if a.kind == .string, !PredicateSQLCompiler.folding(options).isEmpty {
            let order = SQLFragment.function(.compare, [a.fragment, b.fragment, optionsParameter(options)])
            condition = SQLCondition(fragment: .comparison(order, sqlOperator, .parameter(.integer(0))), nullable: a.nullable || b.nullable)
        } else {
            condition = SQLCondition(fragment: .comparison(a.fragment, sqlOperator, b.fragment), nullable: a.nullable || b.nullable)
        }
        if inclusive, a.nullable, b.nullable {
            // nil <= nil holds in memory; SQL's comparison is NULL there.
            let bothNil = SQLCondition.and([
                SQLCondition(fragment: .isNull(a.fragment), nullable: false), SQLCondition(fragment: .isNull(b.fragment), nullable: false),
            ])
            condition = .or([condition, bothNil])
        }
        return condition
    }

    static func sqlOperator(_ op: ComparisonOperator) -> SQLComparisonOperator {
        switch op {
        case .lessThan: .less
        case .lessThanOrEqualTo: .lessOrEqual
        case .greaterThan: .greater
        default: .greaterOrEqual
        }
    }

    /// `x IN {…}`: the members of x's kind (others never equal it), nil members dropped.
    func inList(_ value: SQLOperand, _ items: [PredicateValue], options: ComparisonOptions) throws -> SQLCondition {
        if value.kind == .null { return .truth(false) }
        var members: [SQLOperand] = []
        for item in items {
            guard case .scalar(let member) = try? constantOperand(item), member.kind == value.kind else { continue }
            members.append(member)
        }
        if members.isEmpty { return .truth(false) }
        // SQLite takes at most 32,766 parameters per statement; a larger list is matched in memory.
        guard members.count <= PredicateSQLCompiler.largestINList else {
            throw SQLUnsupported("IN with \(members.count) values (more than \(PredicateSQLCompiler.largestINList)) is evaluated in memory")
        }
        if value.kind == .string, !PredicateSQLCompiler.folding(options).isEmpty {
            return .or(members.map { equality(value, $0, options: options) })
        }
        return SQLCondition(fragment: .inList(value.fragment, members.map(\.fragment)), nullable: value.nullable)
    }

    /// `x BETWEEN {lower, upper}`: `lower <= x AND x <= upper`; nil never lies in a range.
    func between(_ value: SQLOperand, _ lower: PredicateValue, _ upper: PredicateValue, options: ComparisonOptions) throws -> SQLCondition {
        if value.kind == .null || lower.isNull || upper.isNull { return .truth(false) }
        guard case .scalar(let low) = try constantOperand(lower), case .scalar(let high) = try constantOperand(upper) else {
            throw SQLUnsupported("BETWEEN bounds that are not values are evaluated in memory")
        }
        let nonNil = SQLOperand(fragment: value.fragment, kind: value.kind, nullable: false, constant: value.constant)
        let bounds = SQLCondition.and([
            try ordering(nonNil, .greaterThanOrEqualTo, low, options: options),
            try ordering(nonNil, .lessThanOrEqualTo, high, options: options),
        ])
        return SQLCondition(fragment: bounds.fragment, nullable: value.nullable)
    }

    /// The longest IN list bound as parameters.
    static let largestINList = 10_000

    /// The options as the registered functions take them.
    func optionsParameter(_ options: ComparisonOptions) -> SQLFragment {
        .parameter(.integer(Int64(options.rawValue)))
    }
}
