/// Validation of a context's pending changes, as a save runs it (after the `willSave`
/// hooks, before anything is written) or on demand.
///
/// ```swift
/// let book = try context.insert("Book")
/// try book.set("price", 5)
/// do { try context.validateChanges() } catch let failure as any ValidationErrorReporting {
///     failure.validationErrors.map(\.description)   // ["Book/t1: price 5 is below the minimum 15"]
/// }
/// ```
extension ManagedObjectContext {
    /// Checks every pending change as a save would, without saving: inserted objects with
    /// ``ManagedObject/validateForInsert()``, updated ones with
    /// ``ManagedObject/validateForUpdate()``, deleted ones with
    /// ``ManagedObject/validateForDelete()``, then uniqueness constraints against the store
    /// and among the pending objects.
    ///
    /// Throws a ``ValidationError`` for one failure, ``MultipleValidationErrors`` (1560)
    /// carrying all of them for several, and ``ConstraintConflictError`` (133021) when the
    /// only failures are uniqueness conflicts. Changes nothing.
    public func validateChanges() throws {
        try validateObjects()
        let conflicts = try constraintConflicts()
        if !conflicts.isEmpty { throw ConstraintConflictError(conflicts.flatMap(\.validationErrors)) }
    }

    /// Every pending object's rules, uniqueness aside.
    private func validateObjects() throws {
        var errors: [ValidationError] = []
        func collect(_ check: () throws -> Void) throws {
            do {
                try check()
            } catch let failure as any ValidationErrorReporting {
                errors += failure.validationErrors
            }
        }
        // Copies: validation code may touch other objects, which must not disturb the walk.
        var skips = SkipDecision()
        for object in inserted.values where object.isInserted && !skips(object, in: self) { try collect(object.validateForInsert) }
        for object in Array(updated.values) where !object.isDeleted && !skips(object, in: self) { try collect(object.validateForUpdate) }
        for object in Array(deleted.values) { try collect(object.validateForDelete) }
        try MultipleValidationErrors.throwIfAny(errors)
    }

    /// Whether an object has nothing to check: no app code (a plain ``ManagedObject``) and
    /// no rules for its entity. Saving many such objects then costs no call per object; the
    /// answer is kept for a run of objects of one entity and class.
    private struct SkipDecision {
        private var last: (mapping: EntityMapping, type: ObjectIdentifier, skips: Bool)?

        mutating func callAsFunction(_ object: ManagedObject, in context: ManagedObjectContext) -> Bool {
            let type = ObjectIdentifier(Swift.type(of: object))
            if let last, last.mapping === object.mapping, last.type == type { return last.skips }
            let skips = Swift.type(of: object) == ManagedObject.self && context.validationPlan(for: object.mapping).checksNothingOnSave
            last = (object.mapping, type, skips)
            return skips
        }
    }

    /// The save pipeline's validation step: every object's rules. Uniqueness is checked
    /// later, inside the save's transaction (``constraintConflicts()``), where the merge
    /// policy resolves what it finds.
    func validateForSave() throws {
        try validateObjects()
    }

    /// The validation plan of a concrete entity, made once per context.
    func validationPlan(for mapping: EntityMapping) -> ValidationPlan {
        if let plan = validationPlans[mapping.number] { return plan }
        let plan = ValidationPlan(mapping: mapping, model: model)
        validationPlans[mapping.number] = plan
        return plan
    }
}
