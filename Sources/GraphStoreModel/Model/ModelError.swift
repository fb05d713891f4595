/// Why a model is not valid. Each case names the entity and property at fault.
public enum ModelError: Error, Sendable, Hashable, CustomStringConvertible {
    case emptyEntityName
    case duplicateEntity(String)
    case unknownParent(entity: String, parent: String)
    case inheritanceCycle([String])
    /// An entity with more ancestors than GraphStore reads (see `depth` and `maximum`).
    case inheritanceTooDeep(entity: String, depth: Int, maximum: Int)
    case duplicateProperty(entity: String, property: String)
    /// A relationship or fetched property whose destination entity the model lacks.
    case unknownDestination(entity: String, relationship: String, destination: String)
    case unknownInverse(entity: String, relationship: String, inverse: String, destination: String)
    case inverseMismatch(entity: String, relationship: String, inverse: String, pointsBackTo: String)
    case unknownConstraintProperty(entity: String, property: String)
    case unknownIndexProperty(entity: String, index: String, property: String)
    /// A derived attribute whose expression GraphStore cannot compute on save.
    case unsupportedDerivation(entity: String, attribute: String, expression: String, reason: String)
    /// A name that is not an identifier (see `ModelName`): `kind` says what it names
    /// (`entity`, `attribute`, `relationship`, `fetch index`), `entity` where it is.
    case invalidName(String, entity: String, kind: String)

    public var description: String {
        switch self {
        case .emptyEntityName:
            "an entity has an empty name"
        case .duplicateEntity(let name):
            "entity \(name) is declared twice"
        case .unknownParent(let entity, let parent):
            "entity \(entity): parent entity \(parent) does not exist"
        case .inheritanceCycle(let names):
            "entities \(names.joined(separator: " → ")) inherit from each other in a cycle"
        case .inheritanceTooDeep(let entity, let depth, let maximum):
            "entity \(entity) inherits through \(depth) levels of entities; GraphStore reads at most \(maximum)"
        case .duplicateProperty(let entity, let property):
            "entity \(entity): property \(property) is declared twice (or also inherited)"
        case .unknownDestination(let entity, let relationship, let destination):
            "\(entity).\(relationship): destination entity \(destination) does not exist"
        case .unknownInverse(let entity, let relationship, let inverse, let destination):
            "\(entity).\(relationship): inverse \(inverse) is not a relationship of \(destination)"
        case .inverseMismatch(let entity, let relationship, let inverse, let back):
            "\(entity).\(relationship): its inverse \(inverse) names \(back) as its own inverse, not \(relationship)"
        case .unknownConstraintProperty(let entity, let property):
            "entity \(entity): uniqueness constraint names \(property), which is not one of its properties"
        case .unknownIndexProperty(let entity, let index, let property):
            "entity \(entity): fetch index \(index) names \(property), which is not one of its properties"
        case .unsupportedDerivation(let entity, let attribute, let expression, let reason):
            "\(entity).\(attribute): derivation \(expression) cannot be computed: \(reason)"
        case .invalidName(let name, let entity, let kind):
            (kind == "entity" ? "entity \(name)" : "entity \(entity): \(kind) \(name)")
                + " is not a usable name: names are letters, digits and _, not starting with a digit, as Xcode requires"
        }
    }
}
