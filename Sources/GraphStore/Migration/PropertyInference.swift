/// The properties of one destination entity: each paired with its source property (by
/// renaming identifier) or added, and the source's leftover properties removed.
struct PropertyInference {
    typealias Change = InferredMapping.PropertyChange

    let inference: MappingInference
    let entity: EntityDescription
    let from: EntityDescription?
    private(set) var refusals: [MigrationRefusal] = []

    private var source: ManagedObjectModel { inference.source }
    private var destination: ManagedObjectModel { inference.destination }

    init(inference: MappingInference, entity: EntityDescription, from: EntityDescription?) {
        self.inference = inference
        self.entity = entity
        self.from = from
    }

    /// The stored properties (inherited ones included) of the destination entity and of its
    /// source entity.
    private struct Properties {
        var attributes: [AttributeDescription]
        var relationships: [RelationshipDescription]
        var sourceAttributes: [AttributeDescription]
        var sourceRelationships: [RelationshipDescription]
    }

    mutating func infer(into result: inout InferredMapping.Entity) {
        let properties = Properties(
            attributes: destination.attributes(of: entity.name).filter(\.isStored),
            relationships: destination.relationships(of: entity.name).filter { !$0.isTransient },
            sourceAttributes: from.map { source.attributes(of: $0.name).filter(\.isStored) } ?? [],
            sourceRelationships: from.map { source.relationships(of: $0.name).filter { !$0.isTransient } } ?? [])
        let matcher = self.matcher(properties)
        for (name, sources) in matcher.conflicts.sorted(by: { $0.key < $1.key }) {
            refuse(.mappingModelNeeded, name, "its renaming identifier pairs it with \(sources.joined(separator: " and ")), which another property claims too: the mapping is ambiguous")
        }
        for (name, identifiers) in matcher.sameNameUnpaired.sorted(by: { $0.key < $1.key }) {
            result.notes.append("\(name) " + inference.unpairedTwin(identifiers, kind: "property"))
        }
        var used: Set<String> = []
        for attribute in properties.attributes {
            let pair = matcher.pairs[attribute.name]
            if let pair, let old = properties.sourceAttributes.first(where: { $0.name == pair.source }) {
                result.attributes.append(self.attribute(attribute, from: old, match: pair.match))
            } else {
                if let pair { refuse(.mappingModelNeeded, attribute.name, "was the relationship \(pair.source) and is an attribute: a mapping model is needed") }
                result.attributes.append(added(attribute))
            }
            used.formUnion(pair.map { [$0.source] } ?? [])
        }
        for relationship in properties.relationships {
            let pair = matcher.pairs[relationship.name]
            if let pair, let old = properties.sourceRelationships.first(where: { $0.name == pair.source }) {
                result.relationships.append(self.relationship(relationship, from: old, match: pair.match))
            } else {
                if let pair { refuse(.mappingModelNeeded, relationship.name, "was the attribute \(pair.source) and is a relationship: a mapping model is needed") }
                result.relationships.append(added(relationship))
            }
            used.formUnion(pair.map { [$0.source] } ?? [])
        }
        result.removedProperties = removed(properties, used: used)
        result.notes += constraintNotes(renamed: matcher.pairs.mapValues(\.source))
    }

    /// The pairing of the two entities' properties (attributes and relationships together:
    /// an attribute may have been a relationship).
    private func matcher(_ properties: Properties) -> RenamingMatcher {
        let byNameOnly = inference.byNameOnly
        let element = { (name: String, identifier: String?) in
            RenamingMatcher.Element(name: name, renamingIdentifier: byNameOnly ? nil : identifier)
        }
        return RenamingMatcher(
            sources: properties.sourceAttributes.map { element($0.name, $0.renamingIdentifier) }
                + properties.sourceRelationships.map { element($0.name, $0.renamingIdentifier) },
            destinations: properties.attributes.map { element($0.name, $0.renamingIdentifier) }
                + properties.relationships.map { element($0.name, $0.renamingIdentifier) })
    }

    /// The source properties nothing in the destination takes.
    private func removed(_ properties: Properties, used: Set<String>) -> [InferredMapping.RemovedProperty] {
        let (model, entityName) = (source, from?.name ?? entity.name)
        let owner = { (name: String) in MappingInference.declaringEntity(of: name, in: model, from: entityName) }
        return properties.sourceAttributes.filter { !used.contains($0.name) }.map {
            InferredMapping.RemovedProperty(name: $0.name, kind: "\($0.type.xcodeName) attribute", declaredBy: owner($0.name))
        } + properties.sourceRelationships.filter { !used.contains($0.name) }.map {
            InferredMapping.RemovedProperty(name: $0.name, kind: "\(PropertyInference.shape($0)) relationship to \($0.destination)", declaredBy: owner($0.name))
        }
    }

    // MARK: - Attributes

    private mutating func attribute(_ attribute: AttributeDescription, from old: AttributeDescription, match: InferredMapping.Match) -> InferredMapping.Attribute {
        var changes = commonChanges(attribute.name, from: old.name)
        if old.type != attribute.type {
            changes.append(.typeChanged(from: old.type, to: attribute.type))
            if AttributeTypeConversion.of(old.type, to: attribute.type) == nil {
                refuse(
                    .mappingModelNeeded, attribute.name,
                    "changes type from \(old.type.xcodeName) to \(attribute.type.xcodeName); GraphStore's inference carries only changes between Boolean, integer and floating-point types, whose numbers SQLite converts: a mapping model is needed")
            }
        }
        if old.isOptional, !attribute.isOptional {
            changes.append(.becameRequired)
            if attribute.defaultValue == nil {
                refuse(
                    .migrationFails, attribute.name,
                    "becomes required and has no default value: an existing \(entity.name) without a value would fail validation", dependsOnObjects: true)
            }
        } else if !old.isOptional, attribute.isOptional {
            changes.append(.becameOptional)
        }
        if old.allowsExternalBinaryDataStorage != attribute.allowsExternalBinaryDataStorage {
            changes.append(.externalStorageChanged(allowed: attribute.allowsExternalBinaryDataStorage))
        }
        return InferredMapping.Attribute(
            name: attribute.name, type: attribute.type, source: old.name, match: match, changes: changes,
            fill: changes.contains(.becameRequired) ? attribute.defaultValue : nil)
    }

    private mutating func added(_ attribute: AttributeDescription) -> InferredMapping.Attribute {
        if from != nil, !attribute.isOptional, attribute.defaultValue == nil {
            refuse(
                .migrationFails, attribute.name,
                "is a new required attribute with no default value: an existing \(entity.name) has no value for it", dependsOnObjects: true)
        }
        return InferredMapping.Attribute(name: attribute.name, type: attribute.type, source: nil, match: nil, changes: [], fill: attribute.defaultValue)
    }

    // MARK: - Relationships

    private mutating func relationship(
        _ relationship: RelationshipDescription, from old: RelationshipDescription, match: InferredMapping.Match
    ) -> InferredMapping.Relationship {
        var changes = commonChanges(relationship.name, from: old.name)
        let counterpart = inference.counterpart(ofSource: old.destination)
        if let counterpart, destination.isKind(counterpart, of: relationship.destination) {
            if counterpart != relationship.destination {
                changes.append(.destinationChanged(from: old.destination, to: relationship.destination))
            }
        } else {
            let was = counterpart.map { "\(old.destination) (now \($0))" } ?? "\(old.destination) (removed)"
            refuse(
                .mappingModelNeeded, relationship.name,
                "its destination changes from \(was) to \(relationship.destination), which is not that entity or an ancestor of it: a mapping model is needed")
        }
        if old.isToMany, !relationship.isToMany { changes.append(.becameToOne) }
        if !old.isToMany, relationship.isToMany { changes.append(.becameToMany) }
        let wasOrdered = old.isToMany && old.isOrdered
        let isOrdered = relationship.isToMany && relationship.isOrdered
        if !wasOrdered, isOrdered { changes.append(.becameOrdered) }
        if wasOrdered, !isOrdered, relationship.isToMany { changes.append(.becameUnordered) }
        // Only a to-one's optionality is a rule (a to-many's is its minimum count, below).
        if !relationship.isToMany, !old.isToMany, old.isOptional != relationship.isOptional {
            changes.append(relationship.isOptional ? .becameOptional : .becameRequired)
        }
        if !PropertyInference.needsDestination(old), PropertyInference.needsDestination(relationship) {
            refuse(
                .migrationFails, relationship.name,
                "now needs \(relationship.isToMany ? "at least \(relationship.minCount) destinations" : "a destination"): an existing \(entity.name) without would fail validation",
                dependsOnObjects: true)
        }
        if old.isToMany, relationship.isToMany, (old.minCount, old.maxCount) != (relationship.minCount, relationship.maxCount) {
            changes.append(.countChanged(minimum: old.minCount, maximum: old.maxCount, toMinimum: relationship.minCount, toMaximum: relationship.maxCount))
        }
        if (old.inverse == nil) != (relationship.inverse == nil) {
            changes.append(.inverseChanged(from: old.inverse, to: relationship.inverse))
        }
        return InferredMapping.Relationship(
            name: relationship.name, destination: relationship.destination, isToMany: relationship.isToMany, isOrdered: isOrdered,
            inverse: relationship.inverse, storage: .of(relationship, in: destination), source: old.name, match: match,
            sourceStorage: .of(old, in: source), sourceIsOrdered: wasOrdered, sourceInverse: old.inverse, changes: changes)
    }

    private mutating func added(_ relationship: RelationshipDescription) -> InferredMapping.Relationship {
        if from != nil, PropertyInference.needsDestination(relationship) {
            refuse(
                .migrationFails, relationship.name,
                "is a new relationship that needs \(relationship.isToMany ? "at least \(relationship.minCount) destinations" : "a destination"): an existing \(entity.name) has none",
                dependsOnObjects: true)
        }
        return InferredMapping.Relationship(
            name: relationship.name, destination: relationship.destination, isToMany: relationship.isToMany,
            isOrdered: relationship.isToMany && relationship.isOrdered, inverse: relationship.inverse, storage: .of(relationship, in: destination),
            source: nil, match: nil, sourceStorage: nil, sourceIsOrdered: nil, sourceInverse: nil, changes: [])
    }

    // MARK: - Shared

    /// A rename, and a move to another entity of the hierarchy.
    private func commonChanges(_ name: String, from oldName: String) -> [Change] {
        var changes: [Change] = []
        if oldName != name { changes.append(.renamed(from: oldName)) }
        guard let from else { return changes }
        let oldOwner = MappingInference.declaringEntity(of: oldName, in: source, from: from.name)
        let owner = MappingInference.declaringEntity(of: name, in: destination, from: entity.name)
        if inference.counterpart(ofSource: oldOwner) != owner { changes.append(.movedInHierarchy(from: oldOwner, to: owner)) }
        return changes
    }

    /// Uniqueness constraints the source entity did not have: objects that break them
    /// stop the migration (Core Data's 134111).
    private func constraintNotes(renamed: [String: String]) -> [String] {
        guard let from else { return [] }
        let old = Set(from.uniquenessConstraints.map { $0.joined(separator: ",") })
        return entity.uniquenessConstraints.filter { !old.contains($0.map { renamed[$0] ?? $0 }.joined(separator: ",")) }.map {
            "new uniqueness constraint on \($0.joined(separator: ", ")): objects that share those values stop the migration (134111)"
        }
    }

    /// Whether validation asks the relationship to hold something: a required to-one, or
    /// a to-many with a minimum count (a to-many's optionality asks nothing, as in Core Data;
    /// see `RelationshipRules`).
    static func needsDestination(_ relationship: RelationshipDescription) -> Bool {
        relationship.isToMany ? relationship.minCount > 0 : !relationship.isOptional
    }

    static func shape(_ relationship: RelationshipDescription) -> String {
        relationship.isToMany ? (relationship.isOrdered ? "ordered to-many" : "to-many") : "to-one"
    }

    private mutating func refuse(_ code: MigrationRefusal.Code, _ property: String, _ reason: String, dependsOnObjects: Bool = false) {
        refusals.append(MigrationRefusal(code, entity: entity.name, property: property, reason, dependsOnObjects: dependsOnObjects))
    }
}
