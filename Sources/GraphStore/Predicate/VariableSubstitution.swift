/// Replaces bound `$VARIABLE`s by constants throughout a predicate, leaving a SUBQUERY's
/// own variable alone inside that SUBQUERY.
struct VariableSubstitution {
    var bindings: [String: PredicateValue]

    func predicate(_ predicate: ObjectPredicate) -> ObjectPredicate {
        switch predicate {
        case .constant: predicate
        case .comparison(var comparison):
            {
                comparison.left = expression(comparison.left)
                comparison.right = expression(comparison.right)
                return .comparison(comparison)
            }()
        case .and(let operands): .and(operands.map(self.predicate))
        case .or(let operands): .or(operands.map(self.predicate))
        case .not(let operand): .not(self.predicate(operand))
        }
    }

    func expression(_ expression: ObjectExpression) -> ObjectExpression {
        switch expression {
        case .constant, .evaluatedObject, .keyPath, .anyKey:
            return expression
        case .variable(let name):
            return bindings[name].map(ObjectExpression.constant) ?? expression
        case .member(let base, let path):
            return .member(self.expression(base), path)
        case .index(let base, let selector):
            if case .expression(let inner) = selector { return .index(self.expression(base), .expression(self.expression(inner))) }
            return .index(self.expression(base), selector)
        case .aggregate(let elements):
            return .aggregate(elements.map(self.expression))
        case .arithmetic(let op, let left, let right):
            return .arithmetic(op, self.expression(left), self.expression(right))
        case .unary(let op, let operand):
            return .unary(op, self.expression(operand))
        case .function(let function, let arguments):
            return .function(function, arguments.map(self.expression))
        case .selector(let receiver, let selector, let arguments):
            return .selector(receiver: self.expression(receiver), selector: selector, arguments: arguments.map(self.expression))
        case .cast(let value, let type):
            return .cast(self.expression(value), type: type)
        case .subquery(let collection, let variable, let predicate):
            var inner = self
            inner.bindings[variable] = nil
            return .subquery(collection: self.expression(collection), variable: variable, predicate: inner.predicate(predicate))
        }
    }
}
