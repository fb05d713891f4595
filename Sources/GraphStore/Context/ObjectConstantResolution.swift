/// Key paths read from managed objects that a predicate holds as constants, read in a
/// context: `$FETCH_SOURCE.category.name` in a fetched property, `$book.price` after
/// `withSubstitutionVariables(["book": book.predicateValue])`, `%@.title` with an object.
///
/// A managed object in a predicate is its identity only (``ObjectReference``), since a
/// predicate is a `Sendable` value and the object belongs to its context. Before a context
/// compiles or evaluates a predicate, this replaces each part that reads keys of such an
/// object, and depends on nothing else, by the value it has in the context, unsaved changes
/// included, as Core Data evaluates an `NSPredicate` holding the object itself. The store
/// then binds the value (or, for objects, their keys) instead of evaluating anything per row:
///
/// ```swift
/// // $FETCH_SOURCE.category.name == category.name, for a book of Fiction:
/// // "Fiction" == category.name   →   WHERE ? = t1.ZNAME   with ["Fiction"]
/// ```
///
/// A part that also reads the variable of an enclosing SUBQUERY cannot be read once: its
/// objects are handed to the evaluator as the context's objects, so that evaluating it row
/// by row in memory reads their values too.
struct ObjectConstantResolution {
    let context: ManagedObjectContext
    /// Errors met while reading the objects' values (the first is thrown).
    private let errors = PredicateReadErrors()

    init(context: ManagedObjectContext) {
        self.context = context
    }

    /// The predicate with the object constants' key paths read.
    func predicate(_ predicate: ObjectPredicate) throws -> ObjectPredicate {
        switch predicate {
        case .constant:
            return predicate
        case .comparison(var comparison):
            comparison.left = try expression(comparison.left)
            comparison.right = try expression(comparison.right)
            return .comparison(comparison)
        case .and(let operands): return .and(try operands.map(self.predicate))
        case .or(let operands): return .or(try operands.map(self.predicate))
        case .not(let operand): return .not(try self.predicate(operand))
        }
    }

    /// The expression with the object constants' key paths read, innermost first (so that
    /// `SUBQUERY($x.books, …).@count` reads `$x.books`, then the SUBQUERY, then its count).
    func expression(_ expression: ObjectExpression) throws -> ObjectExpression {
        switch expression {
        case .constant, .evaluatedObject, .keyPath, .variable, .anyKey:
            return expression
        case .member(let base, let path):
            return try read(.member(try self.expression(base), path))
        case .index(let base, let selector):
            var selector = selector
            if case .expression(let key) = selector { selector = .expression(try self.expression(key)) }
            return try read(.index(try self.expression(base), selector))
        case .selector(let receiver, let selector, let arguments):
            return try read(.selector(receiver: try self.expression(receiver), selector: selector, arguments: try arguments.map(self.expression)))
        case .subquery(let collection, let variable, let inner):
            return try read(.subquery(collection: try self.expression(collection), variable: variable, predicate: try predicate(inner)))
        case .aggregate(let elements):
            return .aggregate(try elements.map(self.expression))
        case .arithmetic(let op, let left, let right):
            return .arithmetic(op, try self.expression(left), try self.expression(right))
        case .unary(let op, let operand):
            return .unary(op, try self.expression(operand))
        case .function(let function, let arguments):
            return .function(function, try arguments.map(self.expression))
        case .cast(let operand, let type):
            return .cast(try self.expression(operand), type: type)
        }
    }

    /// A member, index, selector or SUBQUERY whose base is a constant holding objects: its
    /// value, read now; other expressions unchanged.
    private func read(_ expression: ObjectExpression) throws -> ObjectExpression {
        guard let base = expression.readBase, case .constant(let value) = base, value.holdsObjectReference else { return expression }
        guard !expression.readsOuterVariable(bound: []) else { return live(expression) }
        let result: PredicateValue
        do {
            result = try PredicateEvaluator(variables: [:]).value(of: live(expression), on: .null)
        } catch {
            throw errors.first ?? error
        }
        if let error = errors.first { throw error }
        return .constant(result.asReferences)
    }

    /// The expression with each object constant of its base made the context's object, whose
    /// keys the evaluator reads.
    private func live(_ expression: ObjectExpression) -> ObjectExpression {
        switch expression {
        case .member(.constant(let value), let path): .member(.constant(live(value)), path)
        case .index(.constant(let value), let selector): .index(.constant(live(value)), selector)
        case .selector(.constant(let value), let selector, let arguments): .selector(receiver: .constant(live(value)), selector: selector, arguments: arguments)
        case .subquery(.constant(let value), let variable, let predicate): .subquery(collection: .constant(live(value)), variable: variable, predicate: predicate)
        default: expression
        }
    }

    /// A constant with its object references made the context's objects (a reference this
    /// context cannot resolve stays as it is, and reads nil, after the error is noted).
    private func live(_ value: PredicateValue) -> PredicateValue {
        switch value {
        case .object(let reference as ObjectReference):
            do {
                return .object(ManagedObjectValues(object: try context.object(for: reference.id), errors: errors))
            } catch {
                errors.record(error)
                return value
            }
        case .array(let elements): return .array(elements.map(live))
        case .set(let elements): return .set(elements.map(live))
        default: return value
        }
    }
}

extension ManagedObjectContext {
    /// The request with the key paths its predicate reads from object constants read in
    /// this context (see ``ObjectConstantResolution``); the request itself when there are none.
    func resolvingObjectConstants(_ request: FetchRequest<ManagedObject>) throws -> FetchRequest<ManagedObject> {
        guard let predicate = request.predicate, predicate.readsObjectConstants else { return request }
        var resolved = request
        resolved.predicate = try ObjectConstantResolution(context: self).predicate(predicate)
        return resolved
    }
}

extension ObjectPredicate {
    /// Whether some part reads keys of an object constant (a quick look before resolving).
    var readsObjectConstants: Bool {
        switch self {
        case .constant: false
        case .comparison(let comparison): comparison.left.readsObjectConstants || comparison.right.readsObjectConstants
        case .and(let operands), .or(let operands): operands.contains(where: \.readsObjectConstants)
        case .not(let operand): operand.readsObjectConstants
        }
    }
}

extension ObjectExpression {
    /// The expression whose value this one reads keys of (a member's base, a SUBQUERY's
    /// collection, a selector's receiver, an index's base); nil for others.
    fileprivate var readBase: ObjectExpression? {
        switch self {
        case .member(let base, _), .index(let base, _): base
        case .selector(let receiver, _, _): receiver
        case .subquery(let collection, _, _): collection
        default: nil
        }
    }

    /// Whether some part reads keys of an object constant.
    var readsObjectConstants: Bool {
        if let base = readBase, case .constant(let value) = base, value.holdsObjectReference { return true }
        switch self {
        case .constant, .evaluatedObject, .keyPath, .variable, .anyKey: return false
        case .member(let base, _): return base.readsObjectConstants
        case .index(let base, let selector):
            if case .expression(let key) = selector, key.readsObjectConstants { return true }
            return base.readsObjectConstants
        case .selector(let receiver, _, let arguments): return receiver.readsObjectConstants || arguments.contains(where: \.readsObjectConstants)
        case .subquery(let collection, _, let predicate): return collection.readsObjectConstants || predicate.readsObjectConstants
        case .aggregate(let elements), .function(_, let elements): return elements.contains(where: \.readsObjectConstants)
        case .arithmetic(_, let left, let right): return left.readsObjectConstants || right.readsObjectConstants
        case .unary(_, let operand), .cast(let operand, _): return operand.readsObjectConstants
        }
    }

    /// Whether the expression reads a `$VARIABLE` it does not bind itself (an enclosing
    /// SUBQUERY's: after substitution, the only variables a fetch's predicate may hold).
    fileprivate func readsOuterVariable(bound: Set<String>) -> Bool {
        switch self {
        case .variable(let name): return !bound.contains(name)
        case .constant, .evaluatedObject, .keyPath, .anyKey: return false
        case .member(let base, _): return base.readsOuterVariable(bound: bound)
        case .index(let base, let selector):
            if case .expression(let key) = selector, key.readsOuterVariable(bound: bound) { return true }
            return base.readsOuterVariable(bound: bound)
        case .selector(let receiver, _, let arguments):
            return receiver.readsOuterVariable(bound: bound) || arguments.contains { $0.readsOuterVariable(bound: bound) }
        case .subquery(let collection, let variable, let predicate):
            return collection.readsOuterVariable(bound: bound) || predicate.readsOuterVariable(bound: bound.union([variable]))
        case .aggregate(let elements), .function(_, let elements): return elements.contains { $0.readsOuterVariable(bound: bound) }
        case .arithmetic(_, let left, let right): return left.readsOuterVariable(bound: bound) || right.readsOuterVariable(bound: bound)
        case .unary(_, let operand), .cast(let operand, _): return operand.readsOuterVariable(bound: bound)
        }
    }
}

extension ObjectPredicate {
    fileprivate func readsOuterVariable(bound: Set<String>) -> Bool {
        switch self {
        case .constant: false
        case .comparison(let comparison): comparison.left.readsOuterVariable(bound: bound) || comparison.right.readsOuterVariable(bound: bound)
        case .and(let operands), .or(let operands): operands.contains { $0.readsOuterVariable(bound: bound) }
        case .not(let operand): operand.readsOuterVariable(bound: bound)
        }
    }
}

extension PredicateValue {
    /// Whether the value is or holds a managed object given as a constant.
    var holdsObjectReference: Bool {
        switch self {
        case .object(let object): object is ObjectReference
        case .array(let elements), .set(let elements): elements.contains(where: \.holdsObjectReference)
        case .null, .attribute: false
        }
    }

    /// The value with each managed object it holds as a reference (its identity), so that the
    /// predicate stays a value and the store binds the object's key.
    var asReferences: PredicateValue {
        switch self {
        case .object(let object as ManagedObjectValues): .object(ObjectReference(id: object.object.objectID))
        case .array(let elements): .array(elements.map(\.asReferences))
        case .set(let elements): .set(elements.map(\.asReferences))
        default: self
        }
    }
}
