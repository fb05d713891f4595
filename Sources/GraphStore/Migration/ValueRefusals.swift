/// Nothing changed when an attribute's type changes: the rule, checked on a store's values.
///
/// A type change some values would not survive (``AttributeTypeConversion/valuesThatFit(_:)``:
/// an Integer 64 into an Integer 16, a Double into an integer, a number into a Boolean) is
/// carried only when every value in the store survives it. Otherwise the step is refused
/// with 134110 before anything is written, naming the step, the attribute, how many objects
/// hold a value the new type would not hold, and one of them.
extension MigrationStep {
    /// The attributes of this step whose values in `store` (at the step's source version)
    /// would not survive their change of type: one refusal per attribute and entity, one
    /// query each; none for the other attributes.
    func valueRefusals(in store: PersistentStore) throws(StoreError) -> [MigrationRefusal] {
        var refusals: [MigrationRefusal] = []
        for entity in mapping.entities where (entity.objectCount ?? 1) > 0 {
            guard let sourceEntity = entity.source, let owner = store.mappings[sourceEntity] else { continue }
            for attribute in entity.attributes {
                guard let sourceName = attribute.source, let (from, to, fit) = attribute.checkedConversion else { continue }
                let found = try store.valuesNotFitting(fit, attribute: sourceName, in: owner)
                guard found.count > 0, let example = found.example else { continue }
                let objects = found.count == 1 ? "1 \(sourceEntity) object holds" : "\(found.count) \(sourceEntity) objects hold"
                refusals.append(MigrationRefusal(
                    .migrationFails, entity: entity.name, property: attribute.name,
                    "changes type from \(from.xcodeName) to \(to.xcodeName) in step \(source) → \(destination), but \(objects) a value \(to.xcodeName) cannot hold (\(example) is one): values would change"))
            }
        }
        return refusals
    }

    /// Whether a step changes an attribute's type in a way the store's values must be checked for.
    var needsValueCheck: Bool {
        mapping.entities.contains { entity in entity.attributes.contains { $0.checkedConversion != nil } }
    }
}

extension InferredMapping.Attribute {
    /// The type change whose values must be checked, when there is one.
    var checkedConversion: (from: AttributeType, to: AttributeType, fit: StoredValueFit)? {
        for case .typeChanged(let from, let to) in changes {
            if case .valuesThatFit(let fit)? = AttributeTypeConversion.of(from, to: to) { return (from, to, fit) }
        }
        return nil
    }
}
