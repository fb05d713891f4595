/// Operands: constants (folded where no key path is involved), SELF, key paths, SUBQUERY
/// variables, counts and string selectors (`PredicateSQLCompiler+Selectors.swift`).
extension PredicateSQLCompiler {
    /// Compiles one side of a comparison. To-many key paths stay `.toMany` (the caller
    /// decides between ANY/ALL, CONTAINS/IN and `@count`).
    func operand(_ expression: ObjectExpression, in scope: SQLScope) throws -> Operand {
        switch expression {
        case .constant(let value):
            return try constantOperand(value)
        case .evaluatedObject:
            return .scalar(selfOperand(scope))
        case .keyPath(let path):
            return try resolve(path, from: scope)
        case .variable(let name):
            guard let bound = variables[name] else { throw SQLUnsupported("$\(name) has no value") }
            return .scalar(selfOperand(bound))
        case .member(let base, let path):
            return try member(base, path, expression: expression, in: scope)
        case .index(let base, .size):
            return try size(of: base, expression: expression, in: scope)
        case .index(let base, .expression(.constant(.attribute(.string(let key))))) where !PredicateSQLCompiler.isConstant(base):
            // `object['key']` reads a key, like `object.key`.
            return try member(base, [key], expression: expression, in: scope, asKeyPath: true)
        case .function(.noindex, let arguments) where arguments.count == 1:
            return try operand(arguments[0], in: scope)
        case .selector(let receiver, let selector, let arguments) where !PredicateSQLCompiler.isConstant(expression):
            return try selectorCall(receiver, selector, arguments, in: scope)
        default:
            return try folded(expression)
        }
    }

    /// A scalar operand, with `@count`/`@min`/`@max`/`@sum` turned into subqueries.
    func valueOperand(_ expression: ObjectExpression, in scope: SQLScope) throws -> Operand {
        try collapseCollectionOperator(try operand(expression, in: scope))
    }

    private func member(_ base: ObjectExpression, _ path: [String], expression: ObjectExpression, in scope: SQLScope, asKeyPath: Bool = false)
        throws -> Operand
    {
        switch base {
        case .keyPath(let basePath) where asKeyPath:
            guard case .scalar(let value) = try resolve(basePath, from: scope), case .object = value.kind else {
                throw SQLUnsupported("\(expression.expressionFormat) indexes something that is not a to-one object")
            }
            return try resolve(basePath + path, from: scope)
        case .evaluatedObject:
            return try resolve(path, from: scope)
        case .variable(let name):
            guard let bound = variables[name] else { throw SQLUnsupported("$\(name) has no value") }
            return try resolve(path, from: bound)
        case .subquery(let collection, let variable, let predicate) where path == ["@count"]:
            return .scalar(try subqueryCount(collection, variable, predicate, in: scope))
        default:
            return try folded(expression)
        }
    }

    /// `x[SIZE]`: the count of a SUBQUERY or of a to-many relationship.
    private func size(of base: ObjectExpression, expression: ObjectExpression, in scope: SQLScope) throws -> Operand {
        if case .subquery(let collection, let variable, let predicate) = base {
            return .scalar(try subqueryCount(collection, variable, predicate, in: scope))
        }
        if PredicateSQLCompiler.isConstant(base) { return try folded(expression) }
        guard case .toMany(let path) = try operand(base, in: scope), path.suffix.isEmpty else {
            throw SQLUnsupported("[SIZE] of \(base.expressionFormat) is evaluated in memory")
        }
        return .scalar(try countOperand(path, extra: []))
    }

    /// A constant expression evaluated once, or unsupported when it involves the object.
    func folded(_ expression: ObjectExpression) throws -> Operand {
        guard PredicateSQLCompiler.isConstant(expression) else {
            throw SQLUnsupported("\(expression.expressionFormat) is evaluated in memory")
        }
        let value: PredicateValue
        do {
            value = try PredicateEvaluator(variables: [:]).value(of: expression, on: .null)
        } catch {
            throw SQLUnsupported("\(expression.expressionFormat) raises when evaluated: \(error)")
        }
        return try constantOperand(value)
    }

    /// A constant value as an operand.
    func constantOperand(_ value: PredicateValue) throws -> Operand {
        switch value {
        case .null:
            return .scalar(.null)
        case .attribute(let attribute):
            return .scalar(SQLOperand(constant: attribute))
        case .array(let elements):
            return .collection(elements, isArray: true)
        case .set(let elements):
            return .collection(elements, isArray: false)
        case .object(let object):
            if let id = object.objectIdentity?.base as? ObjectID { return .scalar(objectConstant(id, value)) }
            if let dictionary = object as? KeyValueDictionary { return .collection(Array(dictionary.entries.values), isArray: false) }
            throw SQLUnsupported("an object that is not a managed object is compared in memory")
        }
    }

    /// A managed object constant: its `Z_PK`, of its root table's kind. A temporary (unsaved)
    /// object gets a kind no stored row has, so it equals nothing stored.
    private func objectConstant(_ id: ObjectID, _ value: PredicateValue) -> SQLOperand {
        guard let key = id.primaryKey else {
            return SQLOperand(fragment: .parameter(.null), kind: .object(table: "temporary \(id)"), nullable: false, constant: value)
        }
        return SQLOperand(fragment: .parameter(.integer(key)), kind: .object(table: id.mapping.table), nullable: false, constant: value)
    }

    /// Whether an expression's value does not depend on the evaluated object (so it can be
    /// computed once). `random()` is excluded: in memory it changes per object.
    static func isConstant(_ expression: ObjectExpression) -> Bool {
        switch expression {
        case .constant:
            return true
        case .evaluatedObject, .keyPath, .variable, .subquery, .anyKey:
            return false
        case .member(let base, _), .unary(_, let base), .cast(let base, _):
            return isConstant(base)
        case .index(let base, let selector):
            if case .expression(let key) = selector, !isConstant(key) { return false }
            return isConstant(base)
        case .aggregate(let elements):
            return elements.allSatisfy(isConstant)
        case .arithmetic(_, let left, let right):
            return isConstant(left) && isConstant(right)
        case .function(let function, let arguments):
            return function != .random && function != .randomBelow && arguments.allSatisfy(isConstant)
        case .selector(let receiver, _, let arguments):
            return isConstant(receiver) && arguments.allSatisfy(isConstant)
        }
    }
}
