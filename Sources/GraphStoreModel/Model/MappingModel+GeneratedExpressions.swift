extension MappingModel {
    /// The value expression a property mapping runs: the one the file gives, or the one
    /// Xcode's compiler generates where the file gives none, from the source and
    /// destination snapshots:
    ///
    /// - an attribute the source entity has too: `$source.name`;
    /// - a relationship with a source key path and mapping named in the file, or one the
    ///   source entity has too: the manager's `destinationInstancesForEntityMappingNamed:sourceInstances:`
    ///   when exactly one entity mapping makes objects of the relationship's destination
    ///   (sub-entities included), else `destinationInstancesForSourceRelationshipNamed:sourceInstances:`;
    /// - anything else: nil (the destination keeps its default).
    ///
    /// ```swift
    /// model.valueExpression(of: mapping.attributeMappings[0], in: mapping)   // "$source.title"
    /// ```
    public func valueExpression(of property: PropertyMapping, in mapping: EntityMapping) -> (expression: String?, isGenerated: Bool) {
        if let written = property.valueExpression { return (written, false) }
        if let keyPath = property.sourceKeyPath, let named = property.sourceMappingName {
            return (MappingModel.destinationInstances(mapping: named, keyPath: keyPath), true)
        }
        guard let sourceName = mapping.sourceEntity, let sourceModel, sourceModel.entity(named: sourceName) != nil else { return (nil, true) }
        if sourceModel.attributes(of: sourceName).contains(where: { $0.name == property.name }) { return ("$source.\(property.name)", true) }
        guard let relationship = sourceModel.relationships(of: sourceName).first(where: { $0.name == property.name }) else { return (nil, true) }
        let target = mapping.destinationEntity.flatMap { name in destinationModel?.relationships(of: name).first { $0.name == property.name } }?
            .destination ?? relationship.destination
        let makers = entityMappings.filter { candidate in
            candidate.destinationEntity.map { destinationModel?.isKind($0, of: target) ?? ($0 == target) } ?? false
        }
        if makers.count == 1 {
            return (MappingModel.destinationInstances(mapping: makers[0].name, keyPath: "$source.\(property.name)"), true)
        }
        return (#"FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "\#(property.name)", $source.\#(property.name))"#, true)
    }

    private static func destinationInstances(mapping: String, keyPath: String) -> String {
        #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "\#(mapping)", \#(keyPath))"#
    }
}
