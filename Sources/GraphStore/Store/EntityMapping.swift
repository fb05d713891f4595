/// Where an attribute lives: its column, or none for a transient attribute.
public struct AttributeMapping: Sendable, Hashable {
    /// The attribute.
    public var attribute: AttributeDescription
    /// The column in the entity's table, nil when transient.
    public var column: String?

    /// Whether the column holds Core Data's tagged blobs (`0x01` + bytes inline, `0x02` + a
    /// file name): a Binary or Transformable attribute that allows external storage.
    public var allowsExternalStorage: Bool {
        attribute.allowsExternalBinaryDataStorage && (attribute.type == .binaryData || attribute.type == .transformable)
    }
}

/// A many-to-many relationship's join table, seen from one side.
public struct JoinTable: Sendable, Hashable {
    /// The table (`Z_1BOOKS`).
    public var table: String
    /// The column holding the source object's `Z_PK`.
    public var sourceColumn: String
    /// The column holding the destination object's `Z_PK`.
    public var destinationColumn: String
    /// The `Z_FOK_` column ordering destinations within one source, when ordered.
    public var orderColumn: String?
    /// The `Z_FOK_` column of the inverse side, when that side is ordered.
    public var inverseOrderColumn: String?
}

/// How a relationship is stored.
public enum RelationshipStorage: Sendable, Hashable {
    /// A to-one: the destination's `Z_PK` in `column`; its `Z_ENT` in `entityColumn` when the
    /// destination has sub-entities; this object's position in an ordered inverse in `orderColumn`.
    case foreignKey(column: String, entityColumn: String?, orderColumn: String?)
    /// A to-many whose inverse is a to-one: the destination rows in `table` whose `column`
    /// holds this object's key, ordered by `orderColumn` when ordered.
    case inverseForeignKey(table: String, column: String, entityColumn: String?, orderColumn: String?)
    /// A many-to-many: rows of a join table.
    case joinTable(JoinTable)
    /// Not stored: transient, or a shape the store cannot hold (the reason says which).
    case notStored(reason: String)
}

/// A relationship and how it is stored.
public struct RelationshipMapping: Sendable, Hashable {
    /// The relationship.
    public var relationship: RelationshipDescription
    /// How it is stored.
    public var storage: RelationshipStorage
    /// The entity numbers a destination may have: the declared destination and its descendants.
    public var destinationNumbers: [Int]

    /// Whether the declared destination has sub-entities (a destination row then says
    /// which one it is).
    var destinationHasSubentities: Bool { destinationNumbers.count > 1 }
}

/// How one entity maps onto one store: its number, table, and a column for each property.
///
/// Mappings are made once when a store opens (read from the store's own schema) or is
/// created (computed with Core Data's naming rules), and are immutable after that. Each
/// belongs to its store (``storeUUID``): an ``ObjectID`` is a mapping and a key.
///
/// ```swift
/// let book = try store.mapping(for: "Book")
/// book.table                                   // "ZBOOK"
/// book.attribute(named: "title")?.column       // "ZTITLE"
/// ```
public final class EntityMapping: Sendable {
    /// The entity as the model declares it.
    public let entity: EntityDescription
    /// `Z_ENT`.
    public let number: Int
    /// The parent entity's number, or 0.
    public let superNumber: Int
    /// The inheritance root's name.
    public let rootName: String
    /// The root's table, which holds this entity's rows.
    public let table: String
    /// The UUID (`Z_UUID`) of the store the mapping belongs to: object IDs point at their
    /// entity's mapping, and so name their store.
    public let storeUUID: String
    /// This entity's number and those of all its descendants.
    public let numbersWithDescendants: [Int]
    /// Whether the table holds only this entity and its descendants (no filter on `Z_ENT` needed).
    public let ownsWholeTable: Bool
    /// Whether the table holds this entity alone (no sub-entities): every row of it is one of
    /// its objects, whatever `Z_ENT` holds, as Core Data reads it (it selects the constant `0`
    /// in place of `Z_ENT` for such an entity and never filters on it).
    public var isAloneInTable: Bool { ownsWholeTable && numbersWithDescendants.count == 1 }
    /// How SQL reads the table's key columns as numbers (see ``KeyColumnSQL``).
    let keys: KeyColumnSQL
    /// All attributes, inherited first, transient ones included.
    public let attributes: [AttributeMapping]
    /// All relationships, inherited first.
    public let relationships: [RelationshipMapping]
    /// The columns a row of this entity is read from and written to, after
    /// `Z_PK, Z_ENT, Z_OPT`: attribute columns, then each to-one's key, entity and order columns.
    public let rowColumns: [String]
    private let attributeIndex: [String: Int]
    private let relationshipIndex: [String: Int]

    /// The entity name.
    public var name: String { entity.name }

    init(
        entity: EntityDescription, number: Int, superNumber: Int, rootName: String, table: String, storeUUID: String,
        numbersWithDescendants: [Int], ownsWholeTable: Bool, keys: KeyColumnSQL,
        attributes: [AttributeMapping], relationships: [RelationshipMapping]
    ) {
        self.entity = entity
        self.number = number
        self.superNumber = superNumber
        self.rootName = rootName
        self.table = table
        self.storeUUID = storeUUID
        self.numbersWithDescendants = numbersWithDescendants
        self.ownsWholeTable = ownsWholeTable
        self.keys = keys
        self.attributes = attributes
        self.relationships = relationships
        self.attributeIndex = Dictionary(attributes.enumerated().map { ($1.attribute.name, $0) }, uniquingKeysWith: { a, _ in a })
        self.relationshipIndex = Dictionary(relationships.enumerated().map { ($1.relationship.name, $0) }, uniquingKeysWith: { a, _ in a })
        self.rowColumns = attributes.compactMap(\.column) + relationships.flatMap { mapping -> [String] in
            guard case .foreignKey(let column, let entityColumn, let orderColumn) = mapping.storage else { return [] }
            return [column] + [entityColumn, orderColumn].compactMap { $0 }
        }
        self.attributeTypes = attributes.map(\.attribute.type)
        self.storedAttributeIndices = attributes.indices.filter { attributes[$0].column != nil }
        self.defaultValues = attributes.map(\.attribute.defaultValue)
        self.defaultSlots = ValueSlots(attributes.map { .value($0.attribute.defaultValue) }, filler: .value(nil))
        self.toOneColumns = relationships.indices.compactMap { i in
            guard case .foreignKey(_, let entityColumn, let orderColumn) = relationships[i].storage else { return nil }
            return ToOneColumns(index: i, hasEntityColumn: entityColumn != nil, hasOrderColumn: orderColumn != nil)
        }
        self.toManyIndices = relationships.indices.filter { relationships[$0].relationship.isToMany }
        self.relationshipInfo = relationships.map {
            RelationshipInfo(
                name: $0.relationship.name, inverse: $0.relationship.inverse, isToMany: $0.relationship.isToMany,
                isOrdered: $0.relationship.isOrdered, destinationNumbers: $0.destinationNumbers)
        }
        self.attributeNames = attributes.map(\.attribute.name)
        self.externalStorage = attributes.map(\.allowsExternalStorage)
        self.hasExternalStorage = externalStorage.contains(true)
        let insertColumns = ["Z_PK", "Z_ENT", "Z_OPT"] + rowColumns
        self.insertSQL = "INSERT INTO \(table) (\(insertColumns.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: insertColumns.count).joined(separator: ", ")))"
        self.updateSQL = "UPDATE \(table) SET \((["Z_OPT"] + rowColumns).map { "\($0) = ?" }.joined(separator: ", "))"
            + " WHERE \(keys.integer("Z_PK")) = ? AND \(keys.integer("Z_OPT")) = ?"
    }

    // Flat copies of what the row paths read for every row, so that reading or writing a
    // row does not copy (and retain) whole attribute descriptions.

    /// The type of each attribute, by attribute index.
    let attributeTypes: [AttributeType]
    /// The indexes of the attributes that have a column, in ``rowColumns`` order.
    let storedAttributeIndices: [Int]
    /// Each attribute's default value, by attribute index.
    let defaultValues: [AttributeValue?]
    /// The same, as a new object holds them.
    let defaultSlots: ValueSlots
    /// The to-ones stored in this row, in ``rowColumns`` order after the attributes.
    let toOneColumns: [ToOneColumns]
    /// The indexes of the to-many relationships.
    let toManyIndices: [Int]

    /// What relationship maintenance reads on every change, by relationship index.
    let relationshipInfo: [RelationshipInfo]
    /// Attribute names, by attribute index.
    let attributeNames: [String]
    /// Whether each attribute's column holds Core Data's external-storage tagged blobs
    /// (Binary and Transformable attributes that allow external storage).
    let externalStorage: [Bool]
    /// Whether any attribute does.
    let hasExternalStorage: Bool

    /// The parts of a relationship that inverse maintenance needs.
    struct RelationshipInfo: Sendable {
        let name: String
        let inverse: String?
        let isToMany: Bool
        let isOrdered: Bool
        let destinationNumbers: [Int]
    }

    /// A to-one's columns in a row: its key, and whether an entity and an order column follow.
    struct ToOneColumns: Sendable {
        let index: Int
        let hasEntityColumn: Bool
        let hasOrderColumn: Bool
    }

    /// The INSERT of one row (all of ``rowColumns``).
    let insertSQL: String
    /// The UPDATE of one row with its version check.
    let updateSQL: String

    /// The position of an attribute in ``attributes``.
    public func attributeIndex(of name: String) -> Int? {
        // Comparing a few short names is cheaper than hashing one; large entities hash.
        attributeNames.count <= 8 ? attributeNames.firstIndex(of: name) : attributeIndex[name]
    }

    /// The position of a relationship in ``relationships``.
    public func relationshipIndex(of name: String) -> Int? {
        relationshipInfo.count <= 8 ? relationshipInfo.firstIndex { $0.name == name } : relationshipIndex[name]
    }

    /// The attribute mapping with this name.
    public func attribute(named name: String) -> AttributeMapping? { attributeIndex[name].map { attributes[$0] } }

    /// The relationship mapping with this name.
    public func relationship(named name: String) -> RelationshipMapping? {
        relationshipIndex[name].map { relationships[$0] }
    }
}
