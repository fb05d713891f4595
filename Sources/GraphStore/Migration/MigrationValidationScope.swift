import Foundation

/// The rules a migrated store is validated against: those the migration can change.
///
/// A copied value under a rule that did not change passes or fails exactly as it did in the
/// store before (and failures the store already had are carried, not refused), so reading
/// it again proves nothing. What a chain of steps can change is checked:
/// - every rule of an entity whose hierarchy or table changes;
/// - an attribute that is new, changes a rule (optionality, bounds, lengths, pattern, type,
///   external storage), or becomes required — unless every object takes a value that is
///   known to pass: a new attribute's default, or the default that fills the empty values;
/// - a relationship that is new, changes shape, destination, inverse or size rules;
/// - the uniqueness constraints of an entity whose constraints change.
/// A property carried through several steps is checked when any step changes it.
/// `graphstore verify` checks every rule of a store.
extension MigrationPlan {
    /// What validating the store this plan migrates must check, by destination names.
    func validationScope(versions: ModelVersions) -> ValidationScope {
        var scope = ValidationScope()
        for step in steps {
            guard let from = versions.version(named: step.source)?.model, let to = versions.version(named: step.destination)?.model else {
                // Unknown versions cannot happen in a plan of these versions; check everything then.
                return ValidationScope(wholeEntities: Set(steps.last?.mapping.entities.map(\.name) ?? []))
            }
            // A mapping model's expressions and policies may give any object any value:
            // every rule of the destination is checked, as Core Data's migration does.
            guard step.mappingModel == nil else {
                scope = ValidationScope(wholeEntities: Set(to.entities.map(\.name)))
                continue
            }
            scope = StepChanges(step: step, from: from, to: to, before: scope).scope
        }
        return scope
    }
}

/// What one step can change, with what earlier steps changed carried through its renames.
private struct StepChanges {
    let step: MigrationStep
    let from: ManagedObjectModel
    let to: ManagedObjectModel
    /// The scope of the steps before, by this step's source names.
    let before: ValidationScope
    private(set) var scope = ValidationScope()

    init(step: MigrationStep, from: ManagedObjectModel, to: ManagedObjectModel, before: ValidationScope) {
        (self.step, self.from, self.to, self.before) = (step, from, to, before)
        for entity in step.mapping.entities where (entity.objectCount ?? 1) > 0 || before.includes(entity: entity.source ?? "") {
            add(entity)
        }
    }

    private mutating func add(_ entity: InferredMapping.Entity) {
        guard let source = entity.source else { return }  // a new entity has no objects
        if entity.changesParent || entity.changesTable || before.wholeEntities.contains(source) {
            scope.wholeEntities.insert(entity.name)
            return
        }
        var changed: Set<String> = []
        for attribute in entity.attributes where attributeChanges(attribute, of: entity, source: source) {
            changed.insert(attribute.name)
        }
        for relationship in entity.relationships where relationshipChanges(relationship, of: entity, source: source) {
            changed.insert(relationship.name)
        }
        if !changed.isEmpty { scope.properties[entity.name] = changed }
        if before.constraints.contains(source) || constraints(of: entity.name, in: to, names: entity) != constraints(of: source, in: from, names: nil) {
            scope.constraints.insert(entity.name)
        }
    }

    private func attributeChanges(_ attribute: InferredMapping.Attribute, of entity: InferredMapping.Entity, source: String) -> Bool {
        guard let new = to.attribute(attribute.name, of: entity.name) else { return true }
        guard let name = attribute.source, let old = from.attribute(name, of: source) else {
            return !fillPasses(attribute.fill, new)
        }
        if before.includes(name, of: source) { return true }
        var relaxed = new
        if attribute.changes.contains(.becameRequired) {
            // Empty values take the fill; the values there were are as before.
            guard fillPasses(attribute.fill, new) else { return true }
            relaxed.isOptional = true
        }
        return AttributeRuleFacts(relaxed) != AttributeRuleFacts(old)
    }

    private func relationshipChanges(_ relationship: InferredMapping.Relationship, of entity: InferredMapping.Entity, source: String) -> Bool {
        guard let name = relationship.source, let old = from.relationship(name, of: source),
            let new = to.relationship(relationship.name, of: entity.name)
        else { return true }
        if before.includes(name, of: source) || relationship.changesStorage { return true }
        let shapeOrLinks = relationship.changes.contains {
            switch $0 {
            case .renamed, .movedInHierarchy, .becameOrdered, .becameUnordered: false
            default: true
            }
        }
        return shapeOrLinks || old.isToMany != new.isToMany || old.isOptional != new.isOptional
            || old.minCount != new.minCount || old.maxCount != new.maxCount
    }

    /// Whether every object given `fill` passes the attribute's rules.
    private func fillPasses(_ fill: AttributeValue?, _ attribute: AttributeDescription) -> Bool {
        do {
            return try AttributeRules.brokenRule(fill, of: attribute) == nil
        } catch {
            return false  // a pattern too costly to decide: check every object
        }
    }

    /// An entity's uniqueness constraints (its own and inherited), each as a set of source
    /// property names when `names` maps destination names to source ones.
    private func constraints(of entity: String, in model: ManagedObjectModel, names: InferredMapping.Entity?) -> Set<Set<String>> {
        let sourceName = { (key: String) -> String in
            guard let names else { return key }
            return names.attributes.first { $0.name == key }?.source ?? names.relationships.first { $0.name == key }?.source ?? "new:\(key)"
        }
        return Set(model.ancestry(of: entity).flatMap(\.uniquenessConstraints).map { Set($0.map(sourceName)) })
    }
}

/// The parts of an attribute its validation rules and reading depend on.
private struct AttributeRuleFacts: Equatable {
    var type: AttributeType
    var isOptional: Bool
    var minValue, maxValue: Double?
    var minLength, maxLength: Int?
    var minDate, maxDate: Date?
    var regularExpression: String?
    var allowsExternalBinaryDataStorage: Bool
    var valueTransformerName, valueClassName, derivationExpression: String?

    init(_ a: AttributeDescription) {
        (type, isOptional) = (a.type, a.isOptional)
        (minValue, maxValue, minLength, maxLength, minDate, maxDate) = (a.minValue, a.maxValue, a.minLength, a.maxLength, a.minDate, a.maxDate)
        (regularExpression, allowsExternalBinaryDataStorage) = (a.regularExpression, a.allowsExternalBinaryDataStorage)
        (valueTransformerName, valueClassName, derivationExpression) = (a.valueTransformerName, a.valueClassName, a.derivationExpression)
    }
}
