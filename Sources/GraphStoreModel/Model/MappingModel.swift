/// A mapping model: how Core Data migrates a store from one model to another when the
/// mapping cannot be inferred, as an Xcode `.xcmappingmodel` bundle describes it.
///
/// A mapping model is a list of entity mappings, run in order. Each makes destination
/// objects of one entity from the source objects its source expression fetches (none for an
/// added entity), setting each attribute and relationship of the destination from a value
/// expression (`$source.title`, `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "BookToBook", $source.books)`),
/// optionally through a custom migration policy class. It also holds snapshots of the two
/// models it was made between, which say which versions of a bundle it fits.
///
/// ```swift
/// let file = try MappingModelFile(path: "Model2toModel3.xcmappingmodel")
/// for mapping in file.mappingModel.entityMappings {
///     print(mapping.name, mapping.kind, mapping.attributeMappings.map(\.name))
/// }
/// ```
public struct MappingModel: Sendable {
    /// The model it maps from, as the file's snapshot describes it (nil when the file has none).
    public var sourceModel: ManagedObjectModel?
    /// The model it maps to, as the file's snapshot describes it.
    public var destinationModel: ManagedObjectModel?
    /// Where the source model was in the app's project when the mapping was made
    /// (`App/Model.xcdatamodeld/Model 2.xcdatamodel`).
    public var sourceModelPath: String?
    /// Where the destination model was.
    public var destinationModelPath: String?
    /// The entity mappings, in the order they run.
    public var entityMappings: [EntityMapping]

    /// A mapping model built in Swift: its entity mappings, and the models it maps between
    /// (which say which versions of a bundle it fits).
    ///
    /// ```swift
    /// let mapping = MappingModel(sourceModel: v1, destinationModel: v2, entityMappings: [
    ///     .init(name: "WordToWord", sourceEntity: "Word", destinationEntity: "Word",
    ///           attributeMappings: [.init(name: "spelling", valueExpression: "$source.text")]),
    /// ])
    /// ```
    public init(
        sourceModel: ManagedObjectModel?, destinationModel: ManagedObjectModel?, sourceModelPath: String? = nil,
        destinationModelPath: String? = nil, entityMappings: [EntityMapping]
    ) {
        self.sourceModel = sourceModel
        self.destinationModel = destinationModel
        self.sourceModelPath = sourceModelPath
        self.destinationModelPath = destinationModelPath
        self.entityMappings = entityMappings
    }

    /// The entity mapping with this name (`BookToBook`).
    public func entityMapping(named name: String) -> EntityMapping? {
        entityMappings.first { $0.name == name }
    }
}

extension MappingModel {
    /// One entity mapping of a ``MappingModel`` (Core Data's `NSEntityMapping`).
    public struct EntityMapping: Sendable, Hashable {
        /// What an entity mapping does, as Core Data's `NSEntityMappingType` names it.
        public enum Kind: String, Sendable, Hashable {
            /// The developer makes the destination objects (Core Data's "undefined").
            case undefined
            /// Made by a custom migration policy.
            case custom
            /// A new entity: its objects exist only in the destination.
            case add
            /// An entity dropped: its source objects are not carried.
            case remove
            /// The source objects are carried as they are.
            case copy
            /// The source objects are carried and changed.
            case transform
        }

        /// The mapping's name: `SourceToDestination`, as Xcode's compiler names it, or the
        /// destination entity's name for an added entity (the source's for a removed one).
        public var name: String
        /// What the mapping does, worked out as Xcode's compiler does: the type the file
        /// names where it names one other than "Undefined"; otherwise add without a source,
        /// remove without a destination, custom with a policy class, else copy.
        public var kind: Kind
        /// The source entity (nil for an added entity).
        public var sourceEntity: String?
        /// The destination entity (nil for a removed entity).
        public var destinationEntity: String?
        /// The policy class that makes the destination objects, as the file names it
        /// (`App.BookToBookPolicy`, or a class name without a module).
        public var policyClassName: String?
        /// The predicate that filters the source objects (`image != nil`), when there is one.
        public var sourceFilter: String?
        /// The mapping's user info, each value as text.
        public var userInfo: [String: String]
        /// The destination's attributes the mapping sets.
        public var attributeMappings: [PropertyMapping]
        /// The destination's relationships the mapping sets.
        public var relationshipMappings: [PropertyMapping]

        /// An entity mapping; its kind is worked out as Xcode's compiler does when not given.
        public init(
            name: String, kind: Kind? = nil, sourceEntity: String?, destinationEntity: String?, policyClassName: String? = nil,
            sourceFilter: String? = nil, userInfo: [String: String] = [:], attributeMappings: [PropertyMapping] = [],
            relationshipMappings: [PropertyMapping] = []
        ) {
            self.name = name
            self.kind = kind ?? (sourceEntity == nil ? .add : destinationEntity == nil ? .remove : policyClassName?.isEmpty == false ? .custom : .copy)
            self.sourceEntity = sourceEntity
            self.destinationEntity = destinationEntity
            self.policyClassName = policyClassName
            self.sourceFilter = sourceFilter
            self.userInfo = userInfo
            self.attributeMappings = attributeMappings
            self.relationshipMappings = relationshipMappings
        }

        /// The expression that fetches the source objects, as Xcode's compiler writes it
        /// (nil for an added entity).
        public var sourceExpression: String? {
            guard let sourceEntity else { return nil }
            let filter = (sourceFilter ?? "TRUEPREDICATE").replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return #"FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "\#(sourceEntity)", "\#(filter)"), $manager.sourceContext, NO)"#
        }
    }

    /// How an entity mapping sets one destination property (Core Data's `NSPropertyMapping`).
    public struct PropertyMapping: Sendable, Hashable {
        /// The destination property.
        public var name: String
        /// The value expression the file gives, as a format string (`$source.color`); nil
        /// when the mapping leaves it to be generated (see ``MappingModel``).
        public var valueExpression: String?
        /// For a relationship: the key path from the source object to the objects whose
        /// destinations it takes (`$source.owner`), when the file names one.
        public var sourceKeyPath: String?
        /// For a relationship: the entity mapping that made those destinations, when the file
        /// names one.
        public var sourceMappingName: String?

        /// A property mapping; without a value expression the compiler's is used.
        public init(name: String, valueExpression: String? = nil, sourceKeyPath: String? = nil, sourceMappingName: String? = nil) {
            self.name = name
            self.valueExpression = valueExpression
            self.sourceKeyPath = sourceKeyPath
            self.sourceMappingName = sourceMappingName
        }
    }
}
