/// A fetch index declared in the model; the store creates it as `Z_<Entity>_<name>`.
///
/// ```swift
/// FetchIndex("byText", ["text"])
/// ```
public struct FetchIndex: Sendable, Hashable {
    /// One indexed property and its order.
    public struct Element: Sendable, Hashable {
        /// The property name.
        public var property: String
        /// Ascending (the default) or descending.
        public var ascending: Bool
        /// `Binary` (the default) or `RTree`.
        public var kind: String

        /// Creates an index element.
        public init(_ property: String, ascending: Bool = true, kind: String = "Binary") {
            self.property = property
            self.ascending = ascending
            self.kind = kind
        }
    }

    /// The index name.
    public var name: String
    /// The indexed properties, in order.
    public var elements: [Element]
    /// A predicate limiting the rows indexed, if any.
    public var partialIndexPredicate: String?

    /// Creates an index.
    public init(_ name: String, elements: [Element], partialIndexPredicate: String? = nil) {
        self.name = name
        self.elements = elements
        self.partialIndexPredicate = partialIndexPredicate
    }

    /// Creates an ascending index over the named properties.
    public init(_ name: String, _ properties: [String]) {
        self.init(name, elements: properties.map { Element($0) })
    }
}

/// A named fetch request stored in the model (Xcode's `<fetchRequest>`).
public struct FetchRequestTemplate: Sendable, Hashable {
    /// The template's name.
    public var name: String
    /// The entity it fetches.
    public var entity: String
    /// The predicate in `NSPredicate` format, if any.
    public var predicate: String?

    /// Creates a template.
    public init(name: String, entity: String, predicate: String?) {
        self.name = name
        self.entity = entity
        self.predicate = predicate
    }
}

/// A fetched property: a weak, read-only relationship evaluated by a fetch.
public struct FetchedPropertyDescription: Sendable, Hashable {
    /// The property name.
    public var name: String
    /// The entity it fetches.
    public var entity: String
    /// The predicate in `NSPredicate` format, if any.
    public var predicate: String?

    /// Creates a fetched property.
    public init(name: String, entity: String, predicate: String?) {
        self.name = name
        self.entity = entity
        self.predicate = predicate
    }
}

/// A named subset of the model's entities (Xcode's `<configuration>`).
public struct ModelConfiguration: Sendable, Hashable {
    /// The configuration's name.
    public var name: String
    /// The entities it contains.
    public var entities: [String]

    /// Creates a configuration.
    public init(name: String, entities: [String]) {
        self.name = name
        self.entities = entities
    }
}
