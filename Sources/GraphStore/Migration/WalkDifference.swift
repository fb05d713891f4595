/// Where a walk through every version parts from Core Data.
///
/// Core Data infers one mapping, straight from the store's version to the destination;
/// GraphStore's plan walks every version between them. The two agree unless a renaming
/// identifier was changed along the way: Wire's model gave `isSilenced` the identifier
/// `mutedStatus` in 2.53.0 and renamed it to `mutedStatus` in 2.54.0, so a walk from an
/// older store drops the values at 2.53.0 where Core Data's one mapping carries them into
/// `mutedStatus`. The plan names each such attribute, so the difference is never silent.
///
/// ```swift
/// plan.valuesOnlyCoreDataCarries   // ["Conversation.mutedStatus (from isSilenced)"]
/// ```
extension MigrationPlan {
    /// The destination attributes, on entities that have objects, that Core Data's one
    /// mapping from the source version would take from the store while this walk starts
    /// them afresh at some step: `Entity.attribute (from sourceAttribute)`.
    public var valuesOnlyCoreDataCarries: [String] {
        guard steps.count > 1, let direct = directMapping, let last = steps.last else { return [] }
        var found: [String] = []
        for entity in last.mapping.entities where (entity.objectCount ?? 1) > 0 {
            guard let straight = direct.entity(named: entity.name), straight.source != nil else { continue }
            for attribute in entity.attributes {
                guard let origin = straight.attributes.first(where: { $0.name == attribute.name })?.source,
                    !walkCarries(attribute.name, of: entity.name)
                else { continue }
                found.append("\(entity.name).\(attribute.name) (from \(origin))")
            }
        }
        return found
    }

    /// Whether the walk takes the destination attribute's values from the store: traced
    /// back step by step, each step names a source attribute of a source entity.
    private func walkCarries(_ attribute: String, of entity: String) -> Bool {
        var (entityName, attributeName) = (entity, attribute)
        for step in steps.reversed() {
            guard let mapped = step.mapping.entity(named: entityName), let source = mapped.source,
                let origin = mapped.attributes.first(where: { $0.name == attributeName })?.source
            else { return false }
            (entityName, attributeName) = (source, origin)
        }
        return true
    }
}
