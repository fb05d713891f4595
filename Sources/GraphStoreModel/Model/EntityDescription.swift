/// An entity: a kind of object, with attributes and relationships, optionally inheriting
/// from a parent entity.
///
/// An entity lists the properties it declares; inherited ones come from its parent
/// (see ``ManagedObjectModel/attributes(of:)``).
///
/// ```swift
/// let book = EntityDescription("Book") {
///     AttributeDescription("title", .string).required()
///     AttributeDescription("price", .double)
///     RelationshipDescription("category", to: "BookCategory", inverse: "books")
/// }
/// ```
public struct EntityDescription: Sendable, Hashable {
    /// The entity name, case preserved (`BookCategory`).
    public var name: String
    /// The parent entity's name, for a sub-entity.
    public var parent: String?
    /// Abstract entities have no instances of their own.
    public var isAbstract: Bool
    /// The class that represents the entity in the app (`representedClassName`).
    public var className: String?
    /// What Xcode generates for the entity (`codeGenerationType`); nil for Manual/None.
    /// `graphstore codegen` follows it (see ``CodeGeneration``).
    public var codeGeneration: CodeGeneration?
    /// The attributes this entity declares (not the inherited ones).
    public var attributes: [AttributeDescription]
    /// The relationships this entity declares (not the inherited ones).
    public var relationships: [RelationshipDescription]
    /// Fetched properties this entity declares (not the inherited ones; see
    /// ``ManagedObjectModel/fetchedProperties(of:)``).
    public var fetchedProperties: [FetchedPropertyDescription]
    /// Groups of property names whose values must be unique together.
    public var uniquenessConstraints: [[String]]
    /// Fetch indexes the store creates for this entity.
    public var fetchIndexes: [FetchIndex]
    /// Changes the version hash without changing the schema.
    public var versionHashModifier: String?
    /// The name this entity had in an earlier model version (Xcode's `elementID`).
    public var renamingIdentifier: String?
    /// Free-form key/value pairs from the model.
    public var userInfo: [String: String]

    /// Creates an entity from its properties.
    public init(
        _ name: String, parent: String? = nil, abstract: Bool = false,
        attributes: [AttributeDescription] = [], relationships: [RelationshipDescription] = []
    ) {
        self.name = name
        self.parent = parent
        self.isAbstract = abstract
        self.attributes = attributes
        self.relationships = relationships
        self.fetchedProperties = []
        self.uniquenessConstraints = []
        self.fetchIndexes = []
        self.userInfo = [:]
    }

    /// Creates an entity from a list of properties, indexes and constraints.
    public init(
        _ name: String, parent: String? = nil, abstract: Bool = false,
        @EntityContentBuilder _ content: () -> [EntityContent]
    ) {
        self.init(name, parent: parent, abstract: abstract)
        for item in content() {
            switch item {
            case .attribute(let a): attributes.append(a)
            case .relationship(let r): relationships.append(r)
            case .fetchIndex(let i): fetchIndexes.append(i)
            case .unique(let keys): uniquenessConstraints.append(keys)
            case .fetchedProperty(let f): fetchedProperties.append(f)
            }
        }
    }

    /// The declared attribute with this name.
    public func attribute(named name: String) -> AttributeDescription? {
        attributes.first { $0.name == name }
    }

    /// The declared relationship with this name.
    public func relationship(named name: String) -> RelationshipDescription? {
        relationships.first { $0.name == name }
    }

    /// The declared fetched property with this name.
    public func fetchedProperty(named name: String) -> FetchedPropertyDescription? {
        fetchedProperties.first { $0.name == name }
    }
}

/// One item in an entity's builder block.
public enum EntityContent: Sendable {
    case attribute(AttributeDescription)
    case relationship(RelationshipDescription)
    case fetchIndex(FetchIndex)
    case unique([String])
    case fetchedProperty(FetchedPropertyDescription)
}

/// A uniqueness constraint in an entity's builder block: `Unique("isbn")`.
public struct Unique: Sendable {
    /// The properties whose values must be unique together.
    public var properties: [String]
    /// Creates a constraint over one or more properties.
    public init(_ properties: String...) { self.properties = properties }
}

/// Collects an entity's properties written one per line.
@resultBuilder
public enum EntityContentBuilder {
    public static func buildExpression(_ a: AttributeDescription) -> [EntityContent] { [.attribute(a)] }
    public static func buildExpression(_ r: RelationshipDescription) -> [EntityContent] { [.relationship(r)] }
    public static func buildExpression(_ i: FetchIndex) -> [EntityContent] { [.fetchIndex(i)] }
    public static func buildExpression(_ u: Unique) -> [EntityContent] { [.unique(u.properties)] }
    public static func buildExpression(_ f: FetchedPropertyDescription) -> [EntityContent] { [.fetchedProperty(f)] }
    public static func buildBlock(_ parts: [EntityContent]...) -> [EntityContent] { parts.flatMap { $0 } }
    public static func buildArray(_ parts: [[EntityContent]]) -> [EntityContent] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [EntityContent]?) -> [EntityContent] { part ?? [] }
    public static func buildEither(first: [EntityContent]) -> [EntityContent] { first }
    public static func buildEither(second: [EntityContent]) -> [EntityContent] { second }
}
