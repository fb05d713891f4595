/// A model as a reader found it, before the checks that make a ``ManagedObjectModel``.
///
/// The Xcode reader, the legacy reader and the `Z_MODELCACHE` decoder all fill a draft and
/// call ``build()``, so the three apply one policy to imperfect input:
///
/// - **Repaired, with a warning:** an inverse that names no relationship, or one that does
///   not point back (the side whose inverse disagrees loses it); an inverse whose destination
///   is unrelated to the declaring entity; uniqueness constraints and fetch indexes naming
///   unknown properties; configurations, fetch requests and fetched properties naming
///   unknown entities. Each of these only loses information a store does not depend on.
/// - **Normalised silently:** a to-one relationship has maximum 1 and is not ordered. Its
///   minimum is kept as read (older Xcode wrote `minCount="1"` on optional to-ones): it does
///   not govern a to-one, optionality does, but it is part of the entity's version hash.
/// - **Read as a plain attribute, with a warning:** a derived attribute whose expression
///   GraphStore cannot compute on save (``ManagedObjectModel/derivationProblem(of:in:)``).
/// - **Rejected** (``ModelError``): a missing parent or destination entity, duplicate entities
///   or properties, inheritance cycles. A store built from such a model cannot be read
///   faithfully, so guessing would be wrong.
struct ModelDraft {
    var entities: [EntityDescription] = []
    var versionIdentifiers: [String] = []
    var fetchRequestTemplates: [FetchRequestTemplate] = []
    var configurations: [ModelConfiguration] = []
    var userInfo: [String: String] = [:]
    var warnings: [ModelWarning] = []

    /// Repairs what can be repaired (recording each repair in ``warnings``) and builds the model.
    mutating func build() throws(ModelError) -> ManagedObjectModel {
        // First: the repairs walk each entity's ancestry, which a cycle or an absurdly deep
        // chain (5,000 levels) would make endless or quadratic.
        try InheritanceCycles.check(entities)
        normaliseToOneCounts()
        repairInverses()
        dropUnknownKeys()
        dropUnknownEntityReferences()
        while true {
            do {
                var model = try ManagedObjectModel(
                    entities: entities, versionIdentifiers: versionIdentifiers,
                    fetchRequestTemplates: fetchRequestTemplates, configurations: configurations)
                model.userInfo = userInfo
                return model
            } catch .unsupportedDerivation(let entity, let attribute, let expression, let reason) {
                try readAsPlainAttribute(entity: entity, attribute: attribute, expression: expression, reason: reason)
            }
        }
    }

    /// A derivation GraphStore cannot compute is dropped with a warning naming it: the
    /// attribute reads as stored, and a save writes what the app sets, never a silent NULL.
    private mutating func readAsPlainAttribute(entity: String, attribute: String, expression: String, reason: String) throws(ModelError) {
        guard let e = entities.firstIndex(where: { $0.name == entity }),
            let a = entities[e].attributes.firstIndex(where: { $0.name == attribute && $0.derivationExpression != nil })
        else { throw .unsupportedDerivation(entity: entity, attribute: attribute, expression: expression, reason: reason) }
        entities[e].attributes[a].derivationExpression = nil
        warnings.append(ModelWarning(
            entity: entity, property: attribute,
            "derivation \(expression) cannot be computed (\(reason)); read as a plain attribute, which a save does not recompute"))
    }

    // MARK: - Lookups that tolerate a not-yet-valid model

    private var indexByName: [String: Int] {
        var result: [String: Int] = [:]
        for (i, entity) in entities.enumerated() where result[entity.name] == nil { result[entity.name] = i }
        return result
    }

    /// The entity and its ancestors, nearest first; stops on a cycle or a missing parent.
    private func lineage(_ name: String, _ index: [String: Int]) -> [EntityDescription] {
        var chain: [EntityDescription] = []
        var seen = Set<String>()
        var current: String? = name
        while let next = current, seen.insert(next).inserted, let i = index[next] {
            chain.append(entities[i])
            current = entities[i].parent
        }
        return chain
    }

    private func relationship(_ name: String, of entity: String, _ index: [String: Int]) -> RelationshipDescription? {
        lineage(entity, index).lazy.compactMap { $0.relationship(named: name) }.first
    }

    private func propertyNames(of entity: String, _ index: [String: Int]) -> Set<String> {
        Set(lineage(entity, index).flatMap { $0.attributes.map(\.name) + $0.relationships.map(\.name) })
    }

    // MARK: - Repairs

    private mutating func normaliseToOneCounts() {
        for e in entities.indices {
            for r in entities[e].relationships.indices where !entities[e].relationships[r].isToMany {
                entities[e].relationships[r].maxCount = 1
                entities[e].relationships[r].isOrdered = false
            }
        }
    }

    private mutating func repairInverses() {
        var index = indexByName
        // 1. Inverses that name nothing on the destination.
        for e in entities.indices {
            for r in entities[e].relationships.indices {
                let relationship = entities[e].relationships[r]
                guard let inverse = relationship.inverse, index[relationship.destination] != nil else { continue }
                if self.relationship(inverse, of: relationship.destination, index) == nil {
                    entities[e].relationships[r].inverse = nil
                    warnings.append(ModelWarning(
                        entity: entities[e].name, property: relationship.name,
                        "inverse \(inverse) is not a relationship of \(relationship.destination); loaded without an inverse"))
                }
            }
        }
        index = indexByName
        // 2. Inverses that do not point back, or point at an unrelated entity. Decided on one
        //    snapshot so the outcome does not depend on the order entities are listed in.
        var drops: [(entity: Int, relationship: Int, reason: String)] = []
        for e in entities.indices {
            let owner = entities[e].name
            for (r, relationship) in entities[e].relationships.enumerated() {
                guard let inverseName = relationship.inverse,
                    let inverse = self.relationship(inverseName, of: relationship.destination, index)
                else { continue }
                if let back = inverse.inverse, back != relationship.name {
                    drops.append((e, r, "its inverse \(relationship.destination).\(inverseName) names \(back) as its own inverse; loaded without an inverse"))
                    continue
                }
                let related = lineage(owner, index).contains { $0.name == inverse.destination }
                    || lineage(inverse.destination, index).contains { $0.name == owner }
                if !related {
                    drops.append((e, r, "its inverse \(relationship.destination).\(inverseName) points to \(inverse.destination), not to \(owner); loaded without an inverse"))
                }
            }
        }
        for drop in drops {
            entities[drop.entity].relationships[drop.relationship].inverse = nil
            warnings.append(ModelWarning(entity: entities[drop.entity].name, property: entities[drop.entity].relationships[drop.relationship].name, drop.reason))
        }
    }

    private mutating func dropUnknownKeys() {
        let index = indexByName
        for e in entities.indices {
            let known = propertyNames(of: entities[e].name, index)
            let name = entities[e].name
            entities[e].uniquenessConstraints = entities[e].uniquenessConstraints.filter { keys in
                let unknown = keys.filter { !known.contains($0) }
                if keys.isEmpty { return false }
                if unknown.isEmpty { return true }
                warnings.append(ModelWarning(
                    entity: name, property: keys.joined(separator: ","),
                    "uniqueness constraint names \(ModelIOText.list(unknown)), not a property of the entity; constraint ignored"))
                return false
            }
            entities[e].fetchIndexes = entities[e].fetchIndexes.filter { fetchIndex in
                let unknown = fetchIndex.elements.map(\.property).filter { !known.contains($0) }
                if fetchIndex.elements.isEmpty {
                    warnings.append(ModelWarning(entity: name, property: fetchIndex.name, "fetch index has no elements; ignored"))
                    return false
                }
                if unknown.isEmpty { return true }
                warnings.append(ModelWarning(
                    entity: name, property: fetchIndex.name,
                    "fetch index names \(ModelIOText.list(unknown)), not a property of the entity; index ignored"))
                return false
            }
        }
    }

    private mutating func dropUnknownEntityReferences() {
        let index = indexByName
        for c in configurations.indices {
            let unknown = configurations[c].entities.filter { index[$0] == nil }
            if !unknown.isEmpty {
                warnings.append(ModelWarning(
                    property: configurations[c].name,
                    "configuration lists \(ModelIOText.list(unknown)), not an entity of the model; left out"))
                configurations[c].entities.removeAll { index[$0] == nil }
            }
        }
        fetchRequestTemplates = fetchRequestTemplates.filter { template in
            if index[template.entity] != nil { return true }
            warnings.append(ModelWarning(property: template.name, "fetch request fetches \(template.entity), not an entity of the model; left out"))
            return false
        }
        for e in entities.indices {
            let name = entities[e].name
            entities[e].fetchedProperties = entities[e].fetchedProperties.filter { fetched in
                if index[fetched.entity] != nil { return true }
                warnings.append(ModelWarning(entity: name, property: fetched.name, "fetched property fetches \(fetched.entity), not an entity of the model; left out"))
                return false
            }
        }
    }
}
