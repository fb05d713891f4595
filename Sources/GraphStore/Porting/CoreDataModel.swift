import Foundation

// Core Data's names for the managed object model, declared unavailable so that a port's
// compile errors say what to write on GraphStore (see CoreDataStack.swift). GraphStore's
// descriptions are values that name each other (a relationship's destination is an entity
// name), where Core Data's are objects that point to each other.

#if !canImport(CoreData)

/// Core Data's `NSManagedObjectModel`: on GraphStore, ``ManagedObjectModel``.
@available(*, unavailable, renamed: "ManagedObjectModel")
public typealias NSManagedObjectModel = ManagedObjectModel

/// Core Data's `NSEntityDescription`: on GraphStore, ``EntityDescription``.
@available(*, unavailable, renamed: "EntityDescription")
public typealias NSEntityDescription = EntityDescription

/// Core Data's `NSPropertyDescription`: GraphStore has no common type; an entity lists its
/// ``AttributeDescription``s and ``RelationshipDescription``s apart.
@available(*, unavailable, message: "a property is an AttributeDescription or a RelationshipDescription on GraphStore: entity.attributes, entity.relationships")
public typealias NSPropertyDescription = AttributeDescription

/// Core Data's `NSAttributeDescription`: on GraphStore, ``AttributeDescription``.
@available(*, unavailable, renamed: "AttributeDescription")
public typealias NSAttributeDescription = AttributeDescription

/// Core Data's `NSDerivedAttributeDescription`: on GraphStore, an attribute with a
/// derivation.
@available(*, unavailable, message: "a derived attribute is an AttributeDescription with a derivation: AttributeDescription(\"pagesCount\", .integer64).derived(\"pages.@count\")")
public typealias NSDerivedAttributeDescription = AttributeDescription

/// Core Data's `NSRelationshipDescription`: on GraphStore, ``RelationshipDescription``.
@available(*, unavailable, renamed: "RelationshipDescription")
public typealias NSRelationshipDescription = RelationshipDescription

/// Core Data's `NSAttributeType` (and `NSAttributeDescription.AttributeType`): on
/// GraphStore, ``AttributeType``.
@available(*, unavailable, renamed: "AttributeType")
public typealias NSAttributeType = AttributeType

/// Core Data's `NSDeleteRule`: on GraphStore, ``DeleteRule``.
@available(*, unavailable, renamed: "DeleteRule")
public typealias NSDeleteRule = DeleteRule

/// Core Data's `NSFetchIndexDescription`: on GraphStore, ``FetchIndex``.
@available(*, unavailable, renamed: "FetchIndex")
public typealias NSFetchIndexDescription = FetchIndex

/// Core Data's `NSFetchIndexElementDescription`: on GraphStore, ``FetchIndex/Element``.
@available(*, unavailable, renamed: "FetchIndex.Element")
public typealias NSFetchIndexElementDescription = FetchIndex.Element

/// Core Data's `NSExpressionDescription`: on GraphStore, ``ExpressionDescription``.
@available(*, unavailable, renamed: "ExpressionDescription")
public typealias NSExpressionDescription = ExpressionDescription

extension ManagedObjectModel {
    /// Core Data's `init(contentsOf:)`, which reads a compiled `.momd`: GraphStore reads the
    /// Xcode model itself (`.xcdatamodeld` or `.xcdatamodel`).
    @available(*, unavailable, message: "read the Xcode model: try ModelFile(path: \"App.xcdatamodeld\").model")
    public init?(contentsOf url: URL) {
        guard let model = try? ModelFile(path: url.path).model else { return nil }
        self = model
    }

    /// Core Data's `entitiesByName`.
    @available(*, unavailable, message: "look an entity up by name: model.entity(named: name)")
    public var entitiesByName: [String: EntityDescription] {
        Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

extension EntityDescription {
    /// Core Data's `attributesByName`.
    @available(*, unavailable, message: "look an attribute up by name: entity.attribute(named: name)")
    public var attributesByName: [String: AttributeDescription] {
        Dictionary(attributes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Core Data's `relationshipsByName`.
    @available(*, unavailable, message: "look a relationship up by name: entity.relationship(named: name)")
    public var relationshipsByName: [String: RelationshipDescription] {
        Dictionary(relationships.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Core Data's `superentity`: on GraphStore, the parent entity's name.
    @available(*, unavailable, message: "an entity names its parent on GraphStore: entity.parent (a name; model.entity(named:) has the entity)")
    public var superentity: String? { parent }

    /// Core Data's `managedObjectClassName`.
    @available(*, unavailable, renamed: "className")
    public var managedObjectClassName: String? { className }

    /// Core Data's `indexes`.
    @available(*, unavailable, renamed: "fetchIndexes")
    public var indexes: [FetchIndex] { fetchIndexes }
}

extension AttributeDescription {
    /// Core Data's `attributeType`.
    @available(*, unavailable, renamed: "type")
    public var attributeType: AttributeType { type }
}

extension RelationshipDescription {
    /// Core Data's `destinationEntity`: on GraphStore, the destination entity's name.
    @available(*, unavailable, message: "a relationship names its destination on GraphStore: relationship.destination (a name)")
    public var destinationEntity: String { destination }

    /// Core Data's `inverseRelationship`: on GraphStore, the inverse's name.
    @available(*, unavailable, message: "a relationship names its inverse on GraphStore: relationship.inverse (a name), or model.inverse(of: relationship)")
    public var inverseRelationship: String? { inverse }
}

extension AttributeType {
    /// Core Data's `.integer16AttributeType`.
    @available(*, unavailable, renamed: "integer16")
    public static var integer16AttributeType: AttributeType { .integer16 }
    /// Core Data's `.integer32AttributeType`.
    @available(*, unavailable, renamed: "integer32")
    public static var integer32AttributeType: AttributeType { .integer32 }
    /// Core Data's `.integer64AttributeType`.
    @available(*, unavailable, renamed: "integer64")
    public static var integer64AttributeType: AttributeType { .integer64 }
    /// Core Data's `.decimalAttributeType`.
    @available(*, unavailable, renamed: "decimal")
    public static var decimalAttributeType: AttributeType { .decimal }
    /// Core Data's `.doubleAttributeType`.
    @available(*, unavailable, renamed: "double")
    public static var doubleAttributeType: AttributeType { .double }
    /// Core Data's `.floatAttributeType`.
    @available(*, unavailable, renamed: "float")
    public static var floatAttributeType: AttributeType { .float }
    /// Core Data's `.stringAttributeType`.
    @available(*, unavailable, renamed: "string")
    public static var stringAttributeType: AttributeType { .string }
    /// Core Data's `.booleanAttributeType`.
    @available(*, unavailable, renamed: "boolean")
    public static var booleanAttributeType: AttributeType { .boolean }
    /// Core Data's `.dateAttributeType`.
    @available(*, unavailable, renamed: "date")
    public static var dateAttributeType: AttributeType { .date }
    /// Core Data's `.binaryDataAttributeType`.
    @available(*, unavailable, renamed: "binaryData")
    public static var binaryDataAttributeType: AttributeType { .binaryData }
    /// Core Data's `.UUIDAttributeType`.
    @available(*, unavailable, renamed: "uuid")
    public static var UUIDAttributeType: AttributeType { .uuid }
    /// Core Data's `.URIAttributeType`.
    @available(*, unavailable, renamed: "uri")
    public static var URIAttributeType: AttributeType { .uri }
}

extension DeleteRule {
    /// Core Data's `.noActionDeleteRule`.
    @available(*, unavailable, renamed: "noAction")
    public static var noActionDeleteRule: DeleteRule { .noAction }
    /// Core Data's `.nullifyDeleteRule`.
    @available(*, unavailable, renamed: "nullify")
    public static var nullifyDeleteRule: DeleteRule { .nullify }
    /// Core Data's `.cascadeDeleteRule`.
    @available(*, unavailable, renamed: "cascade")
    public static var cascadeDeleteRule: DeleteRule { .cascade }
    /// Core Data's `.denyDeleteRule`.
    @available(*, unavailable, renamed: "deny")
    public static var denyDeleteRule: DeleteRule { .deny }
}

#endif
