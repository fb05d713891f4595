/// A managed object as the in-memory predicate evaluator sees it: attributes are values,
/// a to-one is the destination object, a to-many is an array (ordered) or a set of objects,
/// a fetched property the array of its results, and two objects are the same when their
/// object IDs are.
///
/// `KeyValueSource` requires `Sendable`; a managed object is not, since it belongs to its
/// context's thread. This adapter is made for one evaluation, on the context's thread, and
/// the evaluator does not keep the values it reads, so nothing crosses a thread: that is why
/// it may claim `@unchecked Sendable` while `ManagedObject` does not.
///
/// Reading a value may fire a fault, which may fail (the row is gone, a value cannot be
/// decoded). Then the value reads as nil for the evaluator, the first error is kept in
/// ``errors``, and the caller throws it instead of returning an answer built on that nil.
struct ManagedObjectValues: KeyValueSource, @unchecked Sendable {
    let object: ManagedObject
    let errors: PredicateReadErrors

    func value(forKey key: String) -> PredicateValue {
        do {
            return try read(key)
        } catch {
            errors.record(error)
            return .null
        }
    }

    /// Object IDs identify managed objects, as `NSManagedObject.isEqual:` does.
    var objectIdentity: AnyHashable? { AnyHashable(object.objectID) }

    private func read(_ key: String) throws -> PredicateValue {
        let mapping = object.mapping
        if let index = mapping.attributeIndex(of: key) {
            try object.fireFault()
            return PredicateValue(try object.attributeValue(at: index))
        }
        guard let index = mapping.relationshipIndex(of: key) else {
            guard let fetched = object.fetchedProperty(named: key) else {
                throw FetchError.unknownKeyPath(entity: mapping.name, keyPath: key, key: key)
            }
            // A fetched property is an array, as Core Data's is.
            return .array(try object.fetchedObjects(fetched).map { .object(ManagedObjectValues(object: $0, errors: errors)) })
        }
        let relationship = mapping.relationships[index].relationship
        guard object.managedObjectContext != nil else {
            // Without its context the object cannot reach its destinations: say so rather
            // than answer nil or empty.
            throw StoreError.objectNotFound("\(object.objectID) (no longer in a context, so \(key) cannot be read)")
        }
        guard relationship.isToMany else {
            return try object.object(forKey: key).map { .object(ManagedObjectValues(object: $0, errors: errors)) } ?? .null
        }
        let destinations = try object.objects(forKey: key).map { PredicateValue.object(ManagedObjectValues(object: $0, errors: errors)) }
        return relationship.isOrdered ? .array(destinations) : .set(destinations)
    }
}

/// The first error raised while an evaluation read managed objects (see ``ManagedObjectValues``).
/// Shared by the adapters of one evaluation only, on the context's thread.
final class PredicateReadErrors: @unchecked Sendable {
    private(set) var first: (any Error)?

    func record(_ error: any Error) {
        if first == nil { first = error }
    }

    /// Forgets the error, for the next evaluation.
    func clear() { first = nil }
}

/// A managed object or object ID used as a predicate constant (`category == %@`): it
/// stands for the object's identity only, so its keys read as nil inside a predicate.
struct ObjectReference: KeyValueSource {
    let id: ObjectID

    func value(forKey key: String) -> PredicateValue { .null }

    var objectIdentity: AnyHashable? { AnyHashable(id) }
}

extension ManagedObject: PredicateArgument {
    /// The object, compared by object ID: `try ObjectPredicate(format: "category == %@", fiction)`.
    public var predicateValue: PredicateValue { .object(ObjectReference(id: objectID)) }
}

extension ObjectID: PredicateArgument {
    /// The object with this ID, compared by identity: `try ObjectPredicate(format: "SELF IN %@", ids)`.
    public var predicateValue: PredicateValue { .object(ObjectReference(id: self)) }
}

extension ObjectPredicate {
    /// Evaluates the predicate against a managed object, firing faults as it reads values
    /// (and relationships) through key paths.
    ///
    /// A managed object bound to a variable, or given as a `%@` argument, is read in the
    /// evaluated object's context, unsaved changes included (`$other.price < price`).
    ///
    /// ```swift
    /// let cheap = try ObjectPredicate(format: "price < 10 AND category.name == 'Fiction'")
    /// try cheap.evaluate(with: book)   // true or false
    /// ```
    /// - Throws: an error from firing a fault (for instance, the row is gone) rather than an
    ///   answer computed from a missing value; `PredicateEvaluationError` where Foundation raises;
    ///   ``FetchError/unknownKeyPath(entity:keyPath:key:)`` for a key the entity does not have.
    public func evaluate(with object: ManagedObject, substitutionVariables variables: [String: PredicateValue] = [:]) throws -> Bool {
        var predicate = variables.isEmpty ? self : withSubstitutionVariables(variables)
        if let context = object.managedObjectContext, predicate.readsObjectConstants {
            predicate = try ObjectConstantResolution(context: context).predicate(predicate)
        }
        return try predicate.matches(object)
    }

    /// Evaluates a predicate already made ready by its fetch (variables substituted, object
    /// constants read: see ``ManagedObjectContext/resolvingObjectConstants(_:)``) against one
    /// of its objects: what the fetch loop calls for every row it finishes in memory.
    func matches(_ object: ManagedObject) throws -> Bool {
        let errors = PredicateReadErrors()
        let result: Bool
        do {
            result = try evaluate(with: ManagedObjectValues(object: object, errors: errors))
        } catch {
            throw errors.first ?? error
        }
        if let error = errors.first { throw error }
        return result
    }
}

extension ManagedObject {
    /// The value of a key path (`"category.name"`, `"pages.@count"`) as a predicate sees it.
    ///
    /// ```swift
    /// try book.predicateValue(forKeyPath: "category.name")   // "Fiction"
    /// ```
    public func predicateValue(forKeyPath keyPath: String) throws -> PredicateValue {
        let errors = PredicateReadErrors()
        let path = keyPath.split(separator: ".").map(String.init)
        let value: PredicateValue
        do {
            value = try KeyValueCoding.value(of: .object(ManagedObjectValues(object: self, errors: errors)), forKeyPath: path[...])
        } catch {
            throw errors.first ?? error
        }
        if let error = errors.first { throw error }
        return value
    }
}
