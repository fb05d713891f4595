import Foundation

/// Expression values: constants, key paths, variables, indexes, aggregates, arithmetic,
/// functions, CAST and SUBQUERY.
extension PredicateEvaluator {
    func value(of expression: ObjectExpression, on object: PredicateValue) throws -> PredicateValue {
        switch expression {
        case .constant(let value):
            return value
        case .evaluatedObject:
            return object
        case .keyPath(let path):
            return try KeyValueCoding.value(of: object, forKeyPath: path[...])
        case .variable(let name):
            guard let bound = variables[name] else {
                throw PredicateEvaluationError("no value for variable $\(name)")
            }
            return bound
        case .member(let base, let path):
            return try KeyValueCoding.value(of: value(of: base, on: object), forKeyPath: path[...])
        case .index(let base, let selector):
            return try index(value(of: base, on: object), selector, on: object)
        case .aggregate(let elements):
            return .array(try elements.map { try value(of: $0, on: object) })
        case .arithmetic(let op, let left, let right):
            return try PredicateArithmetic.apply(op, value(of: left, on: object), value(of: right, on: object))
        case .unary(let op, let operand):
            return try PredicateArithmetic.apply(op, value(of: operand, on: object))
        case .function(let function, let arguments):
            return try PredicateFunctions.call(function, arguments.map { try value(of: $0, on: object) })
        case .selector(let receiver, let selector, let arguments):
            return try PredicateFunctions.send(
                selector, to: value(of: receiver, on: object), arguments.map { try value(of: $0, on: object) })
        case .cast(let operand, let type) where type == "Class":
            return try namedClass(value(of: operand, on: object))
        case .cast(let operand, let type):
            return try PredicateFunctions.cast(value(of: operand, on: object), to: type)
        case .subquery(let collection, let variable, let predicate):
            let source = try value(of: collection, on: object)
            if source.isNull { return .array([]) }
            guard let elements = source.collectionElements else {
                throw PredicateEvaluationError("SUBQUERY needs a collection, not \(ValueComparison.kind(of: source))")
            }
            var inner = self
            var selected: [PredicateValue] = []
            for element in elements {
                inner.variables[variable] = element
                if try inner.evaluate(predicate, on: element) { selected.append(element) }
            }
            return .array(selected)
        case .anyKey:
            throw PredicateEvaluationError("ANYKEY cannot be evaluated in memory")
        }
    }

    /// `CAST('Name', 'Class')`: the class registered under that name, as a mapping model's
    /// `FUNCTION(CAST('MigrationFunctions', 'Class'), 'name:', …)` names one.
    func namedClass(_ name: PredicateValue) throws -> PredicateValue {
        guard let text = name.stringValue else {
            throw PredicateEvaluationError("CAST to Class needs a class name, not \(ValueComparison.kind(of: name))")
        }
        // Xcode writes a Swift class's module; a class is registered without one.
        guard let found = classes[text] ?? classes[String(text.split(separator: ".").last ?? "")] else {
            let known = classes.keys.sorted()
            throw PredicateEvaluationError(
                "no class named \(text) is registered" + (known.isEmpty ? "" : " (registered: \(known.joined(separator: ", ")))"))
        }
        return found
    }

    /// `[FIRST]`, `[LAST]`, `[SIZE]`, `[n]` on arrays; `['key']` and `[SIZE]` on dictionaries.
    func index(_ base: PredicateValue, _ selector: IndexSelector, on object: PredicateValue) throws -> PredicateValue {
        if base.isNull { return .null }
        switch (base, selector) {
        case (.array(let elements), .first), (.set(let elements), .first):
            return elements.first ?? .null
        case (.array(let elements), .last), (.set(let elements), .last):
            return elements.last ?? .null
        case (.array(let elements), .size), (.set(let elements), .size):
            return .integer(Int64(elements.count))
        case (.object(let dictionary as KeyValueDictionary), .size):
            return .integer(Int64(dictionary.entries.count))
        case (.array(let elements), .expression(let indexExpression)):
            let position = try value(of: indexExpression, on: object)
            guard case .attribute(let number) = position, number.stringValue == nil, let double = number.doubleValue,
                double.rounded() == double, abs(double) < 1e15
            else {
                throw PredicateEvaluationError("an array index must be a whole number")
            }
            let offset = Int(double)
            guard elements.indices.contains(offset) else {
                throw PredicateEvaluationError("index \(offset) is beyond the bounds of an array of \(elements.count)")
            }
            return elements[offset]
        case (.object(let source), .expression(let keyExpression)):
            let key = try value(of: keyExpression, on: object)
            guard let name = key.stringValue else {
                throw PredicateEvaluationError("a dictionary subscript must be a string key")
            }
            return source.value(forKey: name)
        default:
            throw PredicateEvaluationError("cannot index \(ValueComparison.kind(of: base)) this way")
        }
    }
}
