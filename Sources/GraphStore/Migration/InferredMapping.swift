/// The mapping Core Data infers between two versions of a model (lightweight migration),
/// as data: for each destination entity its source entity, for each property its source
/// property or the value it starts with, for each relationship how its storage changes,
/// and what Core Data refuses.
///
/// It says what a migration would do; it does not do it. Counts of objects are filled
/// in from a store with ``counted(_:)``.
///
/// ```swift
/// let mapping = InferredMapping(from: v1, to: v2)
/// mapping.refusals                 // [] when Core Data can infer the migration
/// mapping.entity(named: "Publication")?.source   // "Book": renamed through its renaming identifier
/// ```
public struct InferredMapping: Sendable, Hashable {
    /// The source version's name.
    public var sourceVersion: String
    /// The destination version's name.
    public var destinationVersion: String
    /// One per destination entity, in the destination's entity-number order.
    public var entities: [Entity]
    /// The source entities with no destination: their objects are not migrated.
    public var removedEntities: [RemovedEntity]
    /// What Core Data refuses. A mapping with refusals cannot be run.
    public var refusals: [MigrationRefusal]
    /// Remarks on the mapping as a whole (every entity removed, refusals lifted because the
    /// store has no objects they would apply to, …).
    public var notes: [String]

    /// Whether Core Data refuses the migration.
    public var isRefused: Bool { !refusals.isEmpty }

    /// The destination entity with this name.
    public func entity(named name: String) -> Entity? { entities.first { $0.name == name } }
}

extension InferredMapping {
    /// How a destination entity or property was paired with a source one.
    public enum Match: Sendable, Hashable {
        /// They share a renaming identifier (an element without one has its name as
        /// identifier): Core Data's documented rule. Same names match this way.
        case sameIdentifier
        /// The destination's renaming identifier is the source element's name, while their
        /// identifiers differ (identifiers chained version by version instead of kept
        /// canonical). Whether Core Data pairs these is not known; GraphStore does, so that
        /// values are carried, and says so.
        case renamingIdentifierNamesSource
    }

    /// A destination entity and where its objects come from.
    public struct Entity: Sendable, Hashable {
        /// The destination entity's name.
        public var name: String
        /// Its entity number (`Z_ENT`) in the destination.
        public var number: Int
        /// The table its rows live in, in the destination.
        public var table: String
        /// Its parent in the destination.
        public var parent: String?
        /// Whether it is abstract in the destination.
        public var isAbstract: Bool
        /// The source entity whose objects become this entity's, or nil for a new entity.
        public var source: String?
        /// How ``source`` was matched.
        public var match: Match?
        /// The source entity's number (`Z_ENT`).
        public var sourceNumber: Int?
        /// The table the source entity's rows live in.
        public var sourceTable: String?
        /// The source entity's parent.
        public var sourceParent: String?
        /// Every stored attribute of the destination entity, inherited ones included.
        public var attributes: [Attribute]
        /// Every stored relationship of the destination entity, inherited ones included.
        public var relationships: [Relationship]
        /// The source entity's stored properties that have no destination: their values
        /// are not migrated.
        public var removedProperties: [RemovedProperty]
        /// Remarks (a new uniqueness constraint, a changed hierarchy, …).
        public var notes: [String]
        /// The source objects of exactly this entity (sub-entities not included), once
        /// counted; 0 for a new entity.
        public var objectCount: Int?

        /// Whether the entity is new in the destination.
        public var isAdded: Bool { source == nil }
        /// Whether its parent changes (the source parent's counterpart is not the
        /// destination parent).
        public var changesParent: Bool

        /// Whether its objects change tables.
        public var changesTable: Bool { sourceTable.map { $0 != table } ?? false }
    }

    /// A destination attribute and where its values come from.
    public struct Attribute: Sendable, Hashable {
        /// The attribute's name in the destination.
        public var name: String
        /// Its type in the destination.
        public var type: AttributeType
        /// The source attribute whose values it takes, or nil for a new attribute.
        public var source: String?
        /// How ``source`` was matched.
        public var match: Match?
        /// What changes between the source and destination attribute.
        public var changes: [PropertyChange]
        /// The value objects get where they have none to take: a new attribute's default,
        /// or the default that fills empty values when the attribute becomes required.
        /// Nil means empty (NULL).
        public var fill: AttributeValue?
    }

    /// A destination relationship and where its destinations come from.
    public struct Relationship: Sendable, Hashable {
        /// The relationship's name in the destination.
        public var name: String
        /// Its destination entity.
        public var destination: String
        /// Whether it is to-many.
        public var isToMany: Bool
        /// Whether it is an ordered to-many.
        public var isOrdered: Bool
        /// Its inverse in the destination, if it has one.
        public var inverse: String?
        /// How the destination stores it.
        public var storage: RelationshipStorageKind
        /// The source relationship whose destinations it takes, or nil for a new one.
        public var source: String?
        /// How ``source`` was matched.
        public var match: Match?
        /// How the source stored it.
        public var sourceStorage: RelationshipStorageKind?
        /// Whether the source relationship was ordered.
        public var sourceIsOrdered: Bool?
        /// The source relationship's inverse, if it had one.
        public var sourceInverse: String?
        /// What changes between the source and destination relationship.
        public var changes: [PropertyChange]

        /// Whether the way it is stored changes (another shape, or an order column added
        /// or dropped).
        public var changesStorage: Bool {
            guard let sourceStorage else { return true }
            return sourceStorage != storage || sourceIsOrdered != isOrdered
        }
    }

    /// A source property that has no destination.
    public struct RemovedProperty: Sendable, Hashable {
        /// Its name in the source.
        public var name: String
        /// `String attribute`, `to-many relationship to Page`, …
        public var kind: String
        /// The source entity that declares it (the entity itself, or an ancestor).
        public var declaredBy: String
    }

    /// A source entity that has no destination.
    public struct RemovedEntity: Sendable, Hashable {
        /// Its name in the source.
        public var name: String
        /// Its objects (exactly this entity), once counted.
        public var objectCount: Int?
    }

    /// One change to a property between the versions.
    public enum PropertyChange: Sendable, Hashable {
        /// Renamed through its renaming identifier.
        case renamed(from: String)
        /// Declared by another entity of the hierarchy (moved up or down).
        case movedInHierarchy(from: String, to: String)
        /// Optional in the source, required in the destination; empty values get `fill`.
        case becameRequired
        /// Required in the source, optional in the destination.
        case becameOptional
        /// The attribute type changes (refused: see ``InferredMapping``).
        case typeChanged(from: AttributeType, to: AttributeType)
        /// Whether large values may be stored outside the database changes.
        case externalStorageChanged(allowed: Bool)
        /// A to-one becomes a to-many.
        case becameToMany
        /// A to-many becomes a to-one: an object with several destinations cannot keep them all.
        case becameToOne
        /// An unordered to-many becomes ordered (destinations take the order they are read in).
        case becameOrdered
        /// An ordered to-many becomes unordered (the order is dropped).
        case becameUnordered
        /// The destination entity changes (to an ancestor of the source destination's counterpart).
        case destinationChanged(from: String, to: String)
        /// The inverse relationship changes.
        case inverseChanged(from: String?, to: String?)
        /// The minimum or maximum count changes (checked by validation; a maximum of 0 is
        /// no bound).
        case countChanged(minimum: Int, maximum: Int, toMinimum: Int, toMaximum: Int)
    }
}

/// How a relationship is stored, by shape (the store's own names come with the store).
public enum RelationshipStorageKind: Sendable, Hashable {
    /// A to-one: a column holding the destination's key.
    case foreignKey
    /// A to-many whose inverse is a to-one: the inverse's column, in the destination's table.
    case inverseForeignKey
    /// A many-to-many: a join table.
    case joinTable
    /// Not stored in a way GraphStore reads (a to-many without an inverse).
    case notStored

    /// How a relationship of `model` is stored.
    static func of(_ relationship: RelationshipDescription, in model: ManagedObjectModel) -> RelationshipStorageKind {
        if !relationship.isToMany { return .foreignKey }
        guard let inverse = model.inverse(of: relationship) else { return .notStored }
        return inverse.isToMany ? .joinTable : .inverseForeignKey
    }
}
