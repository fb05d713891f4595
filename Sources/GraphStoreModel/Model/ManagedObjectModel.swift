import Foundation

/// The schema of an object graph: its entities, their properties and inheritance.
///
/// A model is a value: build it once, share it freely. It is validated when built, so a
/// model that exists is consistent (destinations and inverses exist and point back,
/// inheritance has no cycles, no property is declared twice).
///
/// ```swift
/// let model = try ManagedObjectModel {
///     EntityDescription("BookCategory") {
///         AttributeDescription("name", .string)
///         RelationshipDescription("books", to: "Book", inverse: "category", toMany: true)
///     }
///     EntityDescription("Book") {
///         AttributeDescription("title", .string).required()
///         RelationshipDescription("category", to: "BookCategory", inverse: "books")
///     }
/// }
/// ```
public struct ManagedObjectModel: Sendable, Hashable {
    /// The entities, in the order they were given.
    public private(set) var entities: [EntityDescription]
    /// The model's version identifiers (Xcode's "Model Version Identifier"), often `[""]`.
    public var versionIdentifiers: [String]
    /// Named fetch requests stored in the model.
    public var fetchRequestTemplates: [FetchRequestTemplate]
    /// Named subsets of the entities.
    public var configurations: [ModelConfiguration]
    /// Entity version hashes computed by Apple's Core Data, when known (from a store's
    /// metadata or a compiled model). They take precedence in ``entityVersionHashes``;
    /// entities not listed here get the hash ``computedVersionHashes`` gives.
    public var knownVersionHashes: [String: Data]
    /// Free-form key/value pairs attached to the model itself (Xcode's model-level
    /// `<userInfo>`); entities and properties carry their own.
    public var userInfo: [String: String] = [:]

    private var indexByName: [String: Int]
    private var childrenByName: [String: [String]]

    /// Builds and validates a model.
    public init(
        entities: [EntityDescription], versionIdentifiers: [String] = [""],
        fetchRequestTemplates: [FetchRequestTemplate] = [], configurations: [ModelConfiguration] = []
    ) throws(ModelError) {
        self.entities = entities
        self.versionIdentifiers = versionIdentifiers
        self.fetchRequestTemplates = fetchRequestTemplates
        self.configurations = configurations
        self.knownVersionHashes = [:]
        self.indexByName = [:]
        self.childrenByName = [:]
        for (i, entity) in entities.enumerated() {
            guard !entity.name.isEmpty else { throw .emptyEntityName }
            try ManagedObjectModel.checkNames(of: entity)
            guard indexByName.updateValue(i, forKey: entity.name) == nil else { throw .duplicateEntity(entity.name) }
        }
        for entity in entities {
            if let parent = entity.parent {
                guard indexByName[parent] != nil else { throw .unknownParent(entity: entity.name, parent: parent) }
                childrenByName[parent, default: []].append(entity.name)
            }
        }
        for (parent, children) in childrenByName {
            childrenByName[parent] = children.sorted(by: ManagedObjectModel.numberingOrder)
        }
        try validate()
    }

    /// Builds a model from entities written one per line.
    public init(@ModelBuilder _ entities: () -> [EntityDescription]) throws(ModelError) {
        try self.init(entities: entities())
    }

    // MARK: - Lookup

    /// The entity with this exact name.
    public func entity(named name: String) -> EntityDescription? {
        indexByName[name].map { entities[$0] }
    }

    /// The direct sub-entities of an entity, in numbering order.
    public func subentities(of name: String) -> [EntityDescription] {
        (childrenByName[name] ?? []).compactMap { entity(named: $0) }
    }

    /// The entity and all its descendants, in numbering (depth-first) order.
    public func selfAndDescendants(of name: String) -> [EntityDescription] {
        // A stack rather than recursion: no array is copied per level, and a deep
        // hierarchy costs its size, not its size times its depth.
        var family: [EntityDescription] = []
        var stack = [name]
        while let next = stack.popLast() {
            guard let entity = entity(named: next) else { continue }
            family.append(entity)
            stack += (childrenByName[next] ?? []).reversed()
        }
        return family
    }

    /// The chain from the root entity down to this entity.
    public func ancestry(of name: String) -> [EntityDescription] {
        var chain: [EntityDescription] = []
        var current = entity(named: name)
        while let entity = current, chain.count <= entities.count {
            chain.append(entity)
            current = entity.parent.flatMap { self.entity(named: $0) }
        }
        return chain.reversed()
    }

    /// The root of this entity's inheritance tree (the entity whose table holds its rows).
    public func root(of name: String) -> EntityDescription? { ancestry(of: name).first }

    /// Whether `name` is `ancestor` or inherits from it.
    public func isKind(_ name: String, of ancestor: String) -> Bool {
        ancestry(of: name).contains { $0.name == ancestor }
    }

    /// All attributes of an entity, inherited ones first.
    public func attributes(of name: String) -> [AttributeDescription] {
        ancestry(of: name).flatMap(\.attributes)
    }

    /// All relationships of an entity, inherited ones first.
    public func relationships(of name: String) -> [RelationshipDescription] {
        ancestry(of: name).flatMap(\.relationships)
    }

    /// All fetched properties of an entity, inherited ones first.
    public func fetchedProperties(of name: String) -> [FetchedPropertyDescription] {
        ancestry(of: name).flatMap(\.fetchedProperties)
    }

    /// The fetched property with this name, declared or inherited.
    public func fetchedProperty(_ property: String, of name: String) -> FetchedPropertyDescription? {
        ancestry(of: name).reversed().lazy.compactMap { $0.fetchedProperty(named: property) }.first
    }

    /// The attribute with this name, declared or inherited.
    public func attribute(_ property: String, of name: String) -> AttributeDescription? {
        ancestry(of: name).reversed().lazy.compactMap { $0.attribute(named: property) }.first
    }

    /// The relationship with this name, declared or inherited.
    public func relationship(_ property: String, of name: String) -> RelationshipDescription? {
        ancestry(of: name).reversed().lazy.compactMap { $0.relationship(named: property) }.first
    }

    /// The inverse of a relationship, if it has one.
    public func inverse(of relationship: RelationshipDescription) -> RelationshipDescription? {
        relationship.inverse.flatMap { self.relationship($0, of: relationship.destination) }
    }

    // MARK: - Numbering

    /// The entities in Core Data's numbering order: a depth-first pre-order walk of the
    /// inheritance forest, roots and siblings sorted by name, case-insensitively.
    /// The first entity is number 1 (`Z_ENT`).
    public var entitiesInNumberingOrder: [EntityDescription] {
        entities.filter { $0.parent == nil }
            .sorted { ManagedObjectModel.numberingOrder($0.name, $1.name) }
            .flatMap { selfAndDescendants(of: $0.name) }
    }

    /// Case-insensitive name order, with code-point order breaking ties.
    static func numberingOrder(_ a: String, _ b: String) -> Bool {
        let (la, lb) = (a.lowercased(), b.lowercased())
        return la != lb ? la < lb : a < b
    }

    // MARK: - Validation

    private func validate() throws(ModelError) {
        try checkAcyclic()
        // Each entity's property names, inherited ones included, built from its parent's
        // (parents come first in numbering order): no ancestry is walked per entity.
        var visible: [String: Set<String>] = [:]
        for entity in entitiesInNumberingOrder {
            var seen = entity.parent.flatMap { visible[$0] } ?? []
            for name in entity.attributes.map(\.name) + entity.relationships.map(\.name) + entity.fetchedProperties.map(\.name) {
                guard seen.insert(name).inserted else {
                    throw .duplicateProperty(entity: entity.name, property: name)
                }
            }
            visible[entity.name] = seen
        }
        for entity in entities {
            let seen = visible[entity.name] ?? []
            for relationship in entity.relationships {
                try checkRelationship(relationship, of: entity)
            }
            for fetched in entity.fetchedProperties where indexByName[fetched.entity] == nil {
                throw .unknownDestination(entity: entity.name, relationship: fetched.name, destination: fetched.entity)
            }
            for key in entity.uniquenessConstraints.flatMap({ $0 }) where !seen.contains(key) {
                throw .unknownConstraintProperty(entity: entity.name, property: key)
            }
            for index in entity.fetchIndexes {
                for element in index.elements where !seen.contains(element.property) {
                    throw .unknownIndexProperty(entity: entity.name, index: index.name, property: element.property)
                }
            }
        }
        try checkDerivations()
    }

    /// Every derived attribute is one a save can compute: a model never leaves one unset.
    private func checkDerivations() throws(ModelError) {
        for entity in entities {
            for attribute in entity.attributes {
                if let reason = derivationProblem(of: attribute, in: entity.name) {
                    throw .unsupportedDerivation(entity: entity.name, attribute: attribute.name, expression: attribute.derivationExpression ?? "", reason: reason)
                }
            }
        }
    }

    /// The entity's name and the names of its properties and fetch indexes are identifiers
    /// (see ``ModelName``): they become SQL names and key paths.
    private static func checkNames(of entity: EntityDescription) throws(ModelError) {
        let named = [(entity.name, "entity")] + entity.attributes.map { ($0.name, "attribute") }
            + entity.relationships.map { ($0.name, "relationship") } + entity.fetchIndexes.map { ($0.name, "fetch index") }
        for (name, kind) in named where !ModelName.isValid(name) {
            throw .invalidName(name, entity: entity.name, kind: kind)
        }
    }

    private func checkAcyclic() throws(ModelError) {
        try InheritanceCycles.check(entities)
    }

    private func checkRelationship(_ r: RelationshipDescription, of entity: EntityDescription) throws(ModelError) {
        guard self.entity(named: r.destination) != nil else {
            throw .unknownDestination(entity: entity.name, relationship: r.name, destination: r.destination)
        }
        guard let inverseName = r.inverse else { return }
        guard let inverse = relationship(inverseName, of: r.destination) else {
            throw .unknownInverse(entity: entity.name, relationship: r.name, inverse: inverseName, destination: r.destination)
        }
        if let back = inverse.inverse, back != r.name {
            throw .inverseMismatch(entity: entity.name, relationship: r.name, inverse: inverseName, pointsBackTo: back)
        }
    }
}

/// Collects a model's entities written one per line.
@resultBuilder
public enum ModelBuilder {
    public static func buildExpression(_ e: EntityDescription) -> [EntityDescription] { [e] }
    public static func buildBlock(_ parts: [EntityDescription]...) -> [EntityDescription] { parts.flatMap { $0 } }
    public static func buildArray(_ parts: [[EntityDescription]]) -> [EntityDescription] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [EntityDescription]?) -> [EntityDescription] { part ?? [] }
    public static func buildEither(first: [EntityDescription]) -> [EntityDescription] { first }
    public static func buildEither(second: [EntityDescription]) -> [EntityDescription] { second }
}
