/// What ``ManagedObjectContext/execute(_:)-(FetchRequest<ManagedObject>)`` returns: the kind
/// of result the request's ``FetchRequest/resultType`` asks for, as Core Data's `fetch`
/// returns objects, object IDs, dictionaries or, for `.countResultType`, one number.
///
/// ```swift
/// // BubbleTeaFinder (Core Data by Tutorials): NSFetchRequest<NSNumber> with .countResultType
/// var request = try FetchRequest(entityName: "Venue", format: "priceInfo.priceCategory == %@", "$")
/// request.resultType = .count                     // Core Data's .countResultType
/// let cheap = try context.execute(request).count     // unsaved venues included, as count(for:) counts
/// ```
public struct FetchResult<Result: ManagedObject> {
    /// The kind of result the request asked for.
    public let resultType: FetchResultType
    /// With ``FetchResultType/objects``: the objects, in order; empty otherwise.
    public let objects: [Result]
    /// With ``FetchResultType/objects`` and ``FetchResultType/objectIDs``: the objects' IDs,
    /// in order; empty otherwise.
    public let objectIDs: [ObjectID]
    /// With ``FetchResultType/dictionary``: the dictionaries; empty otherwise.
    public let dictionaries: [FetchedDictionary]
    /// With ``FetchResultType/count``: the number of matches, as
    /// ``ManagedObjectContext/count(for:)`` counts them; otherwise how many results there are.
    public let count: Int

    init(resultType: FetchResultType, objects: [Result] = [], objectIDs: [ObjectID] = [], dictionaries: [FetchedDictionary] = [], count: Int) {
        self.resultType = resultType
        self.objects = objects
        self.objectIDs = objectIDs
        self.dictionaries = dictionaries
        self.count = count
    }

    /// The same result with its objects as instances of another class (a typed request's).
    func map<Other>(_ transform: (Result) throws -> Other) rethrows -> FetchResult<Other> {
        FetchResult<Other>(resultType: resultType, objects: try objects.map(transform), objectIDs: objectIDs, dictionaries: dictionaries, count: count)
    }
}

extension ManagedObjectContext {
    /// Runs a request as its ``FetchRequest/resultType`` says, as Core Data's `fetch` does:
    /// objects (``fetch(_:)``), object IDs (``fetchObjectIDs(_:)``), dictionaries
    /// (``fetchDictionaries(_:)``) or the count (``count(for:)``, unsaved changes included).
    ///
    /// ```swift
    /// var request = FetchRequest(entityName: "Book")
    /// request.resultType = .count
    /// try context.execute(request).count      // == try context.count(for: request)
    /// ```
    public func execute(_ request: FetchRequest<ManagedObject>) throws -> FetchResult<ManagedObject> {
        switch request.resultType {
        case .objects:
            let objects = Array(try fetch(request))
            return FetchResult(resultType: .objects, objects: objects, objectIDs: objects.map(\.objectID), count: objects.count)
        case .objectIDs:
            let ids = try fetchObjectIDs(request)
            return FetchResult(resultType: .objectIDs, objectIDs: ids, count: ids.count)
        case .dictionary:
            let dictionaries = try fetchDictionaries(request)
            return FetchResult(resultType: .dictionary, dictionaries: dictionaries, count: dictionaries.count)
        case .count:
            return FetchResult(resultType: .count, count: try count(for: request))
        }
    }
}
