/// The features of a model that Core Data's version-hash construction, as GraphStore knows
/// it, has not been checked on: no store in the corpus uses them, so the hash of an entity
/// that does is computed by the same rules but may differ from the one Core Data writes.
///
/// docs/version-hashes.md lists them with the guess made for each.
enum VersionHashCoverage {
    /// Attribute types no checked store has a stored attribute of.
    static let uncheckedTypes: Set<AttributeType> = [.undefined, .decimal, .uri, .objectID, .composite]

    /// Why each entity's computed hash is unchecked; entities whose hash is checked are
    /// absent. A sub-entity inherits its parent's reason, as its hash includes the parent's.
    static func reasons(for model: ManagedObjectModel) -> [String: String] {
        var reasons: [String: String] = [:]
        for entity in model.entitiesInNumberingOrder {
            var found = features(of: entity, in: model)
            if let parent = entity.parent, reasons[parent] != nil {
                found.append("its parent \(parent)'s hash is unverified")
            }
            if !found.isEmpty { reasons[entity.name] = found.joined(separator: "; ") }
        }
        return reasons
    }

    private static func features(of entity: EntityDescription, in model: ManagedObjectModel) -> [String] {
        var found: [String] = []
        if entity.versionHashModifier?.isEmpty == false { found.append("an entity version hash modifier") }
        if entity.uniquenessConstraints.count > 1 { found.append("\(entity.uniquenessConstraints.count) uniqueness constraints") }
        for constraint in entity.uniquenessConstraints where constraint.contains(where: { $0.contains(".") }) {
            found.append("a uniqueness constraint on a key path (\(constraint.joined(separator: ", ")))")
        }
        var texts = [entity.name] + entity.uniquenessConstraints.flatMap { $0 }
        for attribute in model.attributes(of: entity.name) where !attribute.isTransient {
            found += features(of: attribute)
            texts += [attribute.name, attribute.versionHashModifier ?? ""]
        }
        for relationship in model.relationships(of: entity.name) where !relationship.isTransient {
            found += features(of: relationship)
            texts += [relationship.name, relationship.versionHashModifier ?? "", relationship.destination, relationship.inverse ?? ""]
        }
        if texts.contains(where: { !$0.utf8.allSatisfy { $0 < 0x80 } }) { found.append("a name or modifier that is not ASCII") }
        let names = model.hashedProperties(of: entity.name).map(\.name)
        if names != names.sorted(by: { ManagedObjectModel.numberingOrder($0, $1) }) {
            found.append("property names whose order depends on letter case")
        }
        return found
    }

    private static func features(of attribute: AttributeDescription) -> [String] {
        var found: [String] = []
        if uncheckedTypes.contains(attribute.type) { found.append("\(attribute.name) is a \(attribute.type.xcodeName) attribute") }
        if attribute.derivationExpression != nil { found.append("\(attribute.name) is a derived attribute") }
        if attribute.allowsExternalBinaryDataStorage, attribute.preservesValueInHistoryOnDeletion {
            found.append("\(attribute.name) both allows external storage and preserves its value on deletion")
        }
        return found
    }

    private static func features(of relationship: RelationshipDescription) -> [String] {
        var found: [String] = []
        if relationship.versionHashModifier?.isEmpty == false { found.append("relationship \(relationship.name) has a version hash modifier") }
        if relationship.maxCount > 1 { found.append("\(relationship.name) has a maximum count of \(relationship.maxCount)") }
        return found
    }
}

extension ManagedObjectModel {
    /// The entities whose hash in ``entityVersionHashes`` is computed (not known) and relies
    /// on a feature no checked store uses, each with the reason. An empty dictionary means
    /// every hash is either Apple's own or computed only from features the corpus confirms.
    ///
    /// The unchecked features: an entity version hash modifier, more than one uniqueness
    /// constraint or one on a key path, a relationship version hash modifier, an attribute
    /// both stored externally and preserved on deletion, derived attributes, attributes of
    /// type Decimal, URI, ObjectID, Composite or Undefined, a maximum count above 1, names
    /// that are not ASCII, and property names whose order depends on letter case. A
    /// sub-entity of an entity listed here is listed too.
    ///
    /// ```swift
    /// model.unverifiedVersionHashes["Invoice"]   // "total is a Decimal attribute"
    /// ```
    public var unverifiedVersionHashes: [String: String] {
        VersionHashCoverage.reasons(for: self).filter { knownVersionHashes[$0.key] == nil }
    }
}
