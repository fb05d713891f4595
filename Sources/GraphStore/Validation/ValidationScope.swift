/// Which of a model's rules a store validation checks, when not all of them: the rules of
/// whole entities, the rules of single properties, and uniqueness constraints.
///
/// A migration knows which rules it can change (``MigrationManager`` works this out from
/// its plan): a value copied unchanged under an unchanged rule passes or fails as it did
/// before, so only the rest needs reading. Entity and property names are the model's.
///
/// ```swift
/// var scope = ValidationScope()
/// scope.properties["Book", default: []].insert("price")   // a new minimum price
/// try StoreValidator(store: store).validate(scope: scope) { print($0) }
/// ```
struct ValidationScope: Sendable, Hashable {
    /// Entities every rule of which is checked (a changed hierarchy, a changed table).
    var wholeEntities: Set<String> = []
    /// Entity → the attributes and relationships whose rules are checked.
    var properties: [String: Set<String>] = [:]
    /// Entities whose uniqueness constraints (declared or inherited) are checked.
    var constraints: Set<String> = []

    /// Whether nothing is to be checked.
    var isEmpty: Bool { wholeEntities.isEmpty && constraints.isEmpty && properties.values.allSatisfy(\.isEmpty) }

    /// Whether any rule of the entity is checked.
    func includes(entity: String) -> Bool {
        wholeEntities.contains(entity) || constraints.contains(entity) || !(properties[entity]?.isEmpty ?? true)
    }

    /// Whether the rules of an entity's property are checked.
    func includes(_ property: String, of entity: String) -> Bool {
        wholeEntities.contains(entity) || (properties[entity]?.contains(property) ?? false)
    }
}
