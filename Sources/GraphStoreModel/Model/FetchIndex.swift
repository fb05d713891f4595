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

/// A fetched property: a weak, one-way, read-only relationship whose value is the result of
/// a fetch, evaluated when it is first read (Xcode's `<fetchedProperty>`, Core Data's
/// `NSFetchedPropertyDescription`).
///
/// The predicate may use two variables: `$FETCH_SOURCE`, the object whose property is read,
/// and `$FETCHED_PROPERTY`, this description (its `name` and `userInfo`):
///
/// ```swift
/// FetchedPropertyDescription(name: "bargainBooks", entity: "Book",
///                            predicate: "price < 12 AND category == $FETCH_SOURCE")
/// FetchedPropertyDescription(name: "favourites", entity: "Book",
///                            predicate: "title BEGINSWITH $FETCHED_PROPERTY.userInfo.prefix",
///                            userInfo: ["prefix": "The"])
/// ```
///
/// See `ManagedObject.objects(forKey:)` for how it is read.
public struct FetchedPropertyDescription: Sendable, Hashable {
    /// The property name.
    public var name: String
    /// The entity it fetches.
    public var entity: String
    /// The predicate in `NSPredicate` format, if any.
    public var predicate: String?
    /// The order of the results (an archived model's fetch request may carry one; Xcode's
    /// editor sets none, and the results then come in the store's order).
    public var sortKeys: [SortKey]
    /// The most results, if the fetch request sets a limit.
    public var fetchLimit: Int?
    /// Free-form key/value pairs from the model, which the predicate reads as
    /// `$FETCHED_PROPERTY.userInfo.KEY`.
    public var userInfo: [String: String]

    /// Creates a fetched property.
    public init(
        name: String, entity: String, predicate: String?, sortKeys: [SortKey] = [], fetchLimit: Int? = nil,
        userInfo: [String: String] = [:]
    ) {
        self.name = name
        self.entity = entity
        self.predicate = predicate
        self.sortKeys = sortKeys
        self.fetchLimit = fetchLimit
        self.userInfo = userInfo
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
