/// The standard checks behind ``ManagedObject/validateValue(_:forKey:)``,
/// ``ManagedObject/validateForInsert()``, ``ManagedObject/validateForUpdate()`` and
/// ``ManagedObject/validateForDelete()`` (declared in the class, so that subclasses can
/// override them).
extension ManagedObject {
    /// The model's rules for one attribute; relationship keys pass (their size is checked
    /// per object), unknown keys are an error.
    func validateAgainstModel(_ value: AttributeValue?, forKey key: String) throws {
        guard let index = mapping.attributeIndex(of: key) else {
            if mapping.relationshipIndex(of: key) != nil { return }
            throw StoreError.unknownKey(entity: entity.name, key: key)
        }
        if let rule = try AttributeRules.brokenRule(value, of: mapping.attributes[index].attribute) {
            throw ValidationError(objectID: objectID, key: key, value: value, rule: rule)
        }
    }

    /// Every failure of the property checks: each attribute through
    /// ``validateValue(_:forKey:)`` (so overrides take part), then each relationship's size.
    func standardValidationErrors() throws -> [ValidationError] {
        try fireFault()
        let plan = validationPlan
        var errors: [ValidationError] = []
        // A stored value not read since it was fetched (an external file, a value that cannot
        // be read as its type) is written back as it is: it is not validated again.
        if type(of: self) == ManagedObject.self {
            // Nothing overrides validateValue: only attributes with rules can fail.
            for i in plan.attributes {
                guard case .value(let value) = values[i] else { continue }
                if let rule = try AttributeRules.brokenRule(value, of: mapping.attributes[i].attribute) {
                    errors.append(ValidationError(objectID: objectID, key: mapping.attributeNames[i], value: value, rule: rule))
                }
            }
        } else {
            for (i, key) in mapping.attributeNames.enumerated() {
                guard case .value(let value) = values[i] else { continue }
                do {
                    try validateValue(value, forKey: key)
                } catch let failure as any ValidationErrorReporting {
                    errors += failure.validationErrors
                } catch let error as StoreError {
                    throw error
                } catch {
                    // An app's own error type still says which property failed and why.
                    errors.append(ValidationError(code: .invalid, objectID: objectID, key: key, value: value, rule: .custom("\(error)")))
                }
            }
        }
        for i in plan.relationships {
            let count = try liveCount(ofRelationship: i)
            let relationship = mapping.relationships[i].relationship
            if let rule = RelationshipRules.brokenRule(count: count, of: relationship) {
                errors.append(ValidationError(objectID: objectID, key: relationship.name, value: RelationshipRules.value(count: count, of: relationship), rule: rule))
            }
        }
        return errors
    }

    /// The Deny failures: one per Deny relationship that still holds objects.
    func deleteRuleErrors() throws -> [ValidationError] {
        var errors: [ValidationError] = []
        for i in validationPlan.denied {
            let holding = try liveDestinations(ofRelationship: i)
            guard !holding.isEmpty else { continue }
            errors.append(ValidationError(
                objectID: objectID, key: mapping.relationships[i].relationship.name, value: .integer(Int64(holding.count)),
                rule: .denyDelete, relatedObjects: holding.map(\.objectID)))
        }
        return errors
    }

    /// The objects a relationship holds, leaving out deleted ones (they are on their way
    /// out of it).
    func liveDestinations(ofRelationship index: Int) throws -> [ManagedObject] {
        if mapping.relationshipInfo[index].isToMany {
            return try loadedToMany(index).lazy.map(\.object).filter { !$0.isDeleted }
        }
        guard let destination = try destination(at: index), !destination.isDeleted else { return [] }
        return [destination]
    }

    /// How many objects a relationship holds for its size rules. A to-one left pointing at
    /// a deleted object by a No Action rule still counts: that is the rule's documented effect.
    private func liveCount(ofRelationship index: Int) throws -> Int {
        if mapping.relationshipInfo[index].isToMany {
            return try loadedToMany(index).reduce(0) { $0 + ($1.object.isDeleted ? 0 : 1) }
        }
        try fireFault()
        return toOne[index].isEmpty ? 0 : 1
    }

    /// The entity's validation plan, cached by the context (made afresh, without inherited
    /// constraints, for an object no longer in one).
    var validationPlan: ValidationPlan {
        guard let context = managedObjectContext else { return ValidationPlan(mapping: mapping, model: nil) }
        return context.validationPlan(for: mapping)
    }
}
