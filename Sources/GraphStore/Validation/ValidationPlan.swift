/// What there is to validate for objects of one concrete entity, worked out once per
/// entity: the attributes and relationships that have rules, the Deny relationships, and
/// the uniqueness constraints that apply (declared by the entity or inherited).
///
/// Entities without rules (most of them) then cost a lookup per saved object and nothing
/// more. A class, so that handing a plan out per object retains one reference, not four arrays.
final class ValidationPlan: Sendable {
    /// A uniqueness constraint that applies to this entity. Sub-entities inheriting it share
    /// one constraint (equal values), so their objects are compared with each other.
    struct Constraint: Sendable, Hashable {
        /// The entity that declares it: uniqueness holds among that entity and its descendants.
        let declaringEntity: String
        /// The constrained properties, as declared.
        let keys: [String]
    }

    /// Attributes with at least one rule.
    let attributes: [Int]
    /// Relationships with a rule on their size.
    let relationships: [Int]
    /// Relationships whose delete rule is Deny.
    let denied: [Int]
    /// Uniqueness constraints over attributes.
    let constraints: [Constraint]
    /// Whether inserting or updating objects of the entity checks nothing (delete rules aside).
    let checksNothingOnSave: Bool

    /// The plan of a concrete entity; without the model only its own constraints are known.
    /// A scope keeps only the attributes and relationships it names.
    init(mapping: EntityMapping, model: ManagedObjectModel?, scope: ValidationScope? = nil) {
        let inScope = { (name: String) in scope?.includes(name, of: mapping.name) ?? true }
        attributes = mapping.attributes.indices.filter {
            AttributeRules.hasRules(mapping.attributes[$0].attribute) && inScope(mapping.attributes[$0].attribute.name)
        }
        relationships = mapping.relationships.indices.filter {
            RelationshipRules.hasRules(mapping.relationships[$0].relationship) && inScope(mapping.relationships[$0].relationship.name)
        }
        denied = mapping.relationships.indices.filter { mapping.relationships[$0].relationship.deleteRule == .deny }
        var constraints: [Constraint] = []
        for entity in model?.ancestry(of: mapping.name) ?? [mapping.entity] {
            for keys in entity.uniquenessConstraints where !keys.isEmpty {
                // Core Data's constraints name attributes; a key that is not one cannot be compared here.
                guard keys.allSatisfy({ mapping.attributeIndex(of: $0) != nil }) else { continue }
                constraints.append(Constraint(declaringEntity: entity.name, keys: keys))
            }
        }
        self.constraints = constraints
        checksNothingOnSave = attributes.isEmpty && relationships.isEmpty
    }
}
