/// Where one inferred step and a walk through every version part.
///
/// Core Data infers one mapping, straight from the store's version to the destination, and
/// never looks at the versions in between; a walk infers one mapping per pair of
/// neighbouring versions. The two agree unless a renaming identifier was changed along the
/// way. Renames chain in a walk (`a` renamed `b` in v2, `b` renamed `c` in v3, each through
/// its renaming identifier) but not in one step, whose `c` names `b`, which v1 does not
/// have. And the other way: Wire's model gave `isSilenced` the identifier `mutedStatus`
/// before renaming it, so a walk can drop values at one version that the one step carries.
/// The plan names each such attribute, so the difference is never silent.
///
/// ```swift
/// plan.valuesOnlyTheWalkCarries    // ["Book.c (from a)"]: migrate --walk keeps them
/// ```
extension MigrationPlan {
    /// For a walk: the destination attributes, on entities that have objects, that Core
    /// Data's one mapping from the source version would take from the store while the walk
    /// starts them afresh at some step: `Entity.attribute (from sourceAttribute)`.
    public var valuesOnlyCoreDataCarries: [String] {
        guard steps.count > 1, let direct = directMapping, let last = steps.last else { return [] }
        var found: [String] = []
        for entity in last.mapping.entities where (entity.objectCount ?? 1) > 0 {
            guard let straight = direct.entity(named: entity.name), straight.source != nil else { continue }
            for attribute in entity.attributes {
                guard let origin = straight.attributes.first(where: { $0.name == attribute.name })?.source,
                    MigrationPlan.origin(of: attribute.name, of: entity.name, through: steps) == nil
                else { continue }
                found.append("\(entity.name).\(attribute.name) (from \(origin))")
            }
        }
        return found
    }

    /// For the one inferred step: what a walk through every version would take from the
    /// store, on entities that have objects, while the one step starts it afresh: an
    /// attribute, `Entity.attribute (from sourceAttribute)`, or a whole entity the step
    /// does not carry, `the objects of Entity (from SourceEntity)`.
    public var valuesOnlyTheWalkCarries: [String] {
        guard let walk, let last = walk.last, let step = steps.first else { return [] }
        var found: [String] = []
        for entity in last.mapping.entities where (entity.objectCount ?? 1) > 0 {
            guard let straight = step.mapping.entity(named: entity.name), straight.source != nil else {
                if let origin = MigrationPlan.origin(of: entity.name, through: walk) {
                    found.append("the objects of \(entity.name) (from \(origin))")
                }
                continue
            }
            for attribute in entity.attributes {
                guard let origin = MigrationPlan.origin(of: attribute.name, of: entity.name, through: walk),
                    straight.attributes.first(where: { $0.name == attribute.name })?.source == nil
                else { continue }
                found.append("\(entity.name).\(attribute.name) (from \(origin.entity == entity.name ? origin.attribute : "\(origin.entity).\(origin.attribute)"))")
            }
        }
        return found
    }

    /// The source entity the steps take a destination entity's objects from; nil when
    /// some step starts it afresh.
    private static func origin(of entity: String, through steps: [MigrationStep]) -> String? {
        var name = entity
        for step in steps.reversed() {
            guard let source = step.mapping.entity(named: name)?.source else { return nil }
            name = source
        }
        return name
    }

    /// The source entity and attribute the steps take a destination attribute's values
    /// from, traced back step by step; nil when some step starts it afresh.
    private static func origin(of attribute: String, of entity: String, through steps: [MigrationStep]) -> (entity: String, attribute: String)? {
        var (entityName, attributeName) = (entity, attribute)
        for step in steps.reversed() {
            guard let mapped = step.mapping.entity(named: entityName), let source = mapped.source,
                let origin = mapped.attributes.first(where: { $0.name == attributeName })?.source
            else { return nil }
            (entityName, attributeName) = (source, origin)
        }
        return (entityName, attributeName)
    }
}
