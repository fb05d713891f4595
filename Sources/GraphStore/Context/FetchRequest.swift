/// A description of the objects to fetch: an entity, a predicate, an order, a window.
///
/// Run it with ``ManagedObjectContext/fetch(_:)`` (objects),
/// ``ManagedObjectContext/fetchObjectIDs(_:)``, ``ManagedObjectContext/count(for:)``,
/// ``ManagedObjectContext/fetchDictionaries(_:)`` or ``ManagedObjectContext/enumerate(_:_:)``;
/// see the SQL it compiles to with ``PersistentStore/sql(for:resultType:)``.
///
/// The predicate is compiled to SQL; a part SQL cannot express exactly is evaluated in
/// memory on the rows SQL returns (see ``PersistentStore/sql(for:resultType:)``'s
/// `inMemoryPredicate`), so the answer is the in-memory evaluator's. What that means:
///
/// - **nil**: comparisons follow `evaluate(with:)`, not SQL's NULL logic. In particular
///   `name != "Bob"` matches objects whose name is nil (as the evaluator says). Core
///   Data's SQLite store differs here (its `<>` drops NULL rows); write
///   `name != "Bob" AND name != nil` for its answer.
/// - **Typing**: a number never equals a string (`age == "30"` is false), as `isEqual:` says;
///   SQLite's column affinity does not leak in.
/// - **Strings**: `[c]`, `[d]`, LIKE, MATCHES, BEGINSWITH, ENDSWITH and CONTAINS run the
///   evaluator's own code as SQL functions. Plain `==` and `<` compare stored text by code
///   point, which is the evaluator's answer for text in Unicode NFC (what keyboards and
///   Foundation produce); text stored decomposed (NFD) compares as written, as in Core Data.
/// - **Order of evaluation**: the in-memory part only sees rows the SQL part let through,
///   so where evaluating the whole predicate object by object would raise on some other
///   object (`age + 1 > 30` with a nil age), the fetch may answer instead.
/// - **Unsaved changes** (``includesPendingChanges``): inserted objects that match are
///   included, deleted ones left out, and changed ones judged by their current values, not
///   their stored rows; with sort keys they are merged in where their current values sort.
///   A change to a related object (a renamed category) does not make its books count as
///   changed: their stored rows decide until it is saved, as in Core Data.
///
/// ```swift
/// var request = try FetchRequest(entityName: "Book", format: "price < %@ AND category.name == %@", 20, "Fiction")
/// request.sortKeys = [SortKey("title", caseInsensitive: true)]
/// request.fetchLimit = 10
/// let books = try context.fetch(request)
/// ```
///
/// `Result` is the class of the objects fetched, as in Core Data's `NSFetchRequest<Result>`:
/// ``ManagedObject`` for a request by entity name (above), or a generated class, whose
/// requests take a `#Predicate` and return instances of the class (see
/// `Typed/FetchRequest+Typed.swift`):
///
/// ```swift
/// let cheap = try context.fetch(FetchRequest<Book>(predicate: #Predicate { $0.price < 20 }, sortBy: [SortDescriptor(\.title)]))
/// ```
public struct FetchRequest<Result: ManagedObject>: Sendable {
    /// The entity whose objects are fetched.
    public var entityName: String
    /// Whether objects of sub-entities are included (the default), as in Core Data.
    public var includesSubentities: Bool = true
    /// The condition objects must meet; nil fetches every object.
    public var predicate: ObjectPredicate?
    /// The order of the results, first key first; without keys the order is the store's.
    public var sortKeys: [SortKey] = []
    /// The most results to return; nil for no limit.
    public var fetchLimit: Int?
    /// How many results to skip first.
    public var fetchOffset: Int = 0
    /// When positive, objects are read this many at a time as they are first used
    /// (the fetch itself reads only keys); 0 reads them all at once.
    public var fetchBatchSize: Int = 0
    /// Whether unsaved changes count (the default): inserted objects that match are
    /// included, deleted ones left out, and changed ones judged by their current values.
    public var includesPendingChanges: Bool = true
    /// What the request returns, as Core Data's `resultType`: what
    /// ``ManagedObjectContext/execute(_:)-(FetchRequest<ManagedObject>)`` returns, and the kind of
    /// result ``PersistentStore/sql(for:resultType:)`` shows unless told another (see
    /// ``FetchResultType``: each of the other entry points returns its own kind).
    public var resultType: FetchResultType = .objects
    /// For dictionary results: the attributes (or to-one relationships) to return, as key
    /// paths through to-one relationships (`"category.name"`), and aggregates
    /// (``ExpressionDescription``).
    public var propertiesToFetch: [FetchProperty] = []
    /// For dictionary results: the key paths whose values make a group (SQL's `GROUP BY`);
    /// each key path of ``propertiesToFetch`` must be one of them. Aggregates are computed
    /// per group; with no groups they are computed over every matching row (one dictionary).
    public var propertiesToGroupBy: [String] = []
    /// For grouped dictionary results: the condition a group's dictionary must meet, naming
    /// its entries by key (`books > 1`, `category.name BEGINSWITH "F"`). Evaluated on the
    /// groups SQL returns, before the window.
    public var havingPredicate: ObjectPredicate?
    /// For dictionary results: whether repeated dictionaries are returned once.
    public var returnsDistinctResults: Bool = false

    /// A request of any result class for an entity (the typed and untyped inits call this).
    init(uncheckedEntityName entityName: String, predicate: ObjectPredicate?, sortKeys: [SortKey]) {
        self.entityName = entityName
        self.predicate = predicate
        self.sortKeys = sortKeys
    }

    /// The same request with another result class (every setting kept).
    init<Other>(_ other: FetchRequest<Other>) {
        self.init(uncheckedEntityName: other.entityName, predicate: other.predicate, sortKeys: other.sortKeys)
        includesSubentities = other.includesSubentities
        fetchLimit = other.fetchLimit
        fetchOffset = other.fetchOffset
        fetchBatchSize = other.fetchBatchSize
        includesPendingChanges = other.includesPendingChanges
        resultType = other.resultType
        propertiesToFetch = other.propertiesToFetch
        propertiesToGroupBy = other.propertiesToGroupBy
        havingPredicate = other.havingPredicate
        returnsDistinctResults = other.returnsDistinctResults
    }

    /// The request as the fetch engine runs it: by entity name, results of any class.
    var untyped: FetchRequest<ManagedObject> { FetchRequest<ManagedObject>(self) }

    /// Throws when the window makes no sense (a negative limit, offset or batch size).
    func validate() throws(FetchError) {
        if let fetchLimit, fetchLimit < 0 { throw .invalidRequest("the fetch limit \(fetchLimit) is negative") }
        if fetchOffset < 0 { throw .invalidRequest("the fetch offset \(fetchOffset) is negative") }
        if fetchBatchSize < 0 { throw .invalidRequest("the batch size \(fetchBatchSize) is negative") }
    }
}

/// Requests by entity name, whose results are ``ManagedObject``s.
extension FetchRequest where Result == ManagedObject {
    /// A request for the objects of an entity that match a predicate.
    public init(entityName: String, predicate: ObjectPredicate? = nil, sortKeys: [SortKey] = []) {
        self.init(uncheckedEntityName: entityName, predicate: predicate, sortKeys: sortKeys)
    }

    /// A request whose predicate is parsed from a format string (`%@`, `%K`, … from `arguments`).
    public init(entityName: String, format: String, _ arguments: any PredicateArgument...) throws {
        self.init(entityName: entityName, predicate: try ObjectPredicate(format: format, argumentArray: arguments))
    }
}

/// What a fetch request returns: Core Data's `resultType` (`NSFetchRequestResultType`).
///
/// Each entry point of a context returns one kind of result, whatever the request says:
/// ``ManagedObjectContext/fetch(_:)`` objects, ``ManagedObjectContext/fetchObjectIDs(_:)``
/// IDs, ``ManagedObjectContext/fetchDictionaries(_:)`` dictionaries,
/// ``ManagedObjectContext/count(for:)`` the count. ``ManagedObjectContext/execute(_:)-(FetchRequest<ManagedObject>)``
/// runs a request as its `resultType` says, as Core Data's `fetch` does, and
/// ``PersistentStore/sql(for:resultType:)`` shows the SQL of this kind of result. Core
/// Data's names are here too, so that a ported line compiles as it is:
///
/// ```swift
/// var request = FetchRequest(entityName: "Venue")
/// request.resultType = .count                           // Core Data: .countResultType
/// let count = try context.execute(request).count        // Core Data: fetch(request).first?.intValue
/// let sql = try store.sql(for: request)                 // what count(for: request) runs
/// ```
public enum FetchResultType: Sendable, Hashable, CaseIterable {
    /// Managed objects (full rows), the default.
    case objects
    /// Object IDs (keys and entity numbers).
    case objectIDs
    /// The number of matches, one number (Core Data's `.countResultType`).
    case count
    /// Dictionaries of the request's `propertiesToFetch` (Core Data's `.dictionaryResultType`).
    case dictionary

    /// The earlier name of ``dictionary``.
    public static var dictionaries: FetchResultType { .dictionary }
}
