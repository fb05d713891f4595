import Foundation

// Core Data's names for fetch requests and results controllers, declared unavailable so
// that a port's compile errors say what to write on GraphStore (see CoreDataStack.swift).
// Foundation's NSPredicate and NSSortDescriptor are Foundation's: GraphStore declares
// neither (a second declaration would make a port's uses ambiguous); its requests take
// ObjectPredicate and SortKey.

#if !canImport(CoreData)

/// Core Data's `NSFetchRequest<Result>`: on GraphStore, ``FetchRequest``.
@available(*, unavailable, renamed: "FetchRequest")
public typealias NSFetchRequest<Result: ManagedObject> = FetchRequest<Result>

/// Core Data's `NSFetchRequestResultType`: on GraphStore, ``FetchResultType``.
@available(*, unavailable, renamed: "FetchResultType")
public typealias NSFetchRequestResultType = FetchResultType

/// Core Data's `NSFetchedResultsController<Result>`: on GraphStore,
/// ``FetchedResultsController``.
@available(*, unavailable, renamed: "FetchedResultsController")
public typealias NSFetchedResultsController<Result: ManagedObject> = FetchedResultsController<Result>

/// Core Data's `NSFetchedResultsControllerDelegate`: on GraphStore,
/// ``FetchedResultsControllerDelegate``, whose methods are generic over the controller's
/// results.
@available(*, unavailable, renamed: "FetchedResultsControllerDelegate")
public typealias NSFetchedResultsControllerDelegate = FetchedResultsControllerDelegate

/// Core Data's `NSFetchedResultsSectionInfo`: on GraphStore, ``FetchedResultsSectionInfo``.
@available(*, unavailable, renamed: "FetchedResultsSectionInfo")
public typealias NSFetchedResultsSectionInfo = FetchedResultsSectionInfo

/// Core Data's `NSFetchedResultsChangeType`: on GraphStore, ``FetchedResultsChangeType``.
@available(*, unavailable, renamed: "FetchedResultsChangeType")
public typealias NSFetchedResultsChangeType = FetchedResultsChangeType

/// Core Data's `NSAsynchronousFetchRequest`: a GraphStore fetch runs in the caller's task;
/// fetch in a background context for work off the main actor.
@available(*, unavailable, message: "fetch in a background context instead: try await container.performBackgroundTask { context in try context.fetch(request).map(\\.objectID) }")
public typealias NSAsynchronousFetchRequest<Result: ManagedObject> = FetchRequest<Result>

extension FetchRequest {
    /// Core Data's `sortDescriptors`: GraphStore's requests sort by ``SortKey``s (model key
    /// paths as text, which Foundation's `NSSortDescriptor` on Linux cannot hold:
    /// `SortKey("date", ascending: false)`).
    ///
    /// Its elements are `Any` so that a port's array of `NSSortDescriptor`s meets this
    /// declaration, and its message, rather than a type mismatch; the sort keys it is given
    /// are kept.
    @available(*, unavailable, renamed: "sortKeys")
    public var sortDescriptors: [Any] {
        get { sortKeys }
        set { sortKeys = newValue.compactMap { $0 as? SortKey } }
    }
}

extension FetchRequest where Result: EntityObject {
    /// Core Data's `NSFetchRequest<Book>(entityName: "Book")`: a typed GraphStore request
    /// takes its entity from its class.
    @available(*, unavailable, message: "a typed request takes its entity from its class: try FetchRequest<Book>(); FetchRequest(entityName:) makes an untyped one")
    public init(entityName: String) {
        self.init(uncheckedEntityName: entityName, predicate: nil, sortKeys: [])
    }
}

extension FetchResultType {
    /// Core Data's `.managedObjectResultType`.
    @available(*, unavailable, renamed: "objects")
    public static var managedObjectResultType: FetchResultType { .objects }

    /// Core Data's `.managedObjectIDResultType`: on GraphStore, run the request with
    /// ``ManagedObjectContext/fetchObjectIDs(_:)``.
    @available(*, unavailable, renamed: "objectIDs")
    public static var managedObjectIDResultType: FetchResultType { .objectIDs }

    /// Core Data's `.dictionaryResultType`: on GraphStore, run the request with
    /// ``ManagedObjectContext/fetchDictionaries(_:)``.
    @available(*, unavailable, renamed: "dictionary")
    public static var dictionaryResultType: FetchResultType { .dictionary }

    /// Core Data's `.countResultType`: ``count``, which ``ManagedObjectContext/execute(_:)-(FetchRequest<ManagedObject>)``
    /// runs as ``ManagedObjectContext/count(for:)`` does.
    @available(*, unavailable, renamed: "count")
    public static var countResultType: FetchResultType { .count }
}

extension FetchedResultsController {
    /// Core Data's `init(fetchRequest:managedObjectContext:sectionNameKeyPath:cacheName:)`:
    /// a GraphStore controller keeps no cache.
    @available(*, unavailable, renamed: "init(fetchRequest:managedObjectContext:sectionNameKeyPath:)")
    public convenience init(fetchRequest: FetchRequest<Result>, managedObjectContext: ManagedObjectContext, sectionNameKeyPath: String?, cacheName: String?) {
        self.init(fetchRequest: fetchRequest, managedObjectContext: managedObjectContext, sectionNameKeyPath: sectionNameKeyPath)
    }

    /// Core Data's `deleteCache(withName:)`: a GraphStore controller keeps no cache, so
    /// there is none to delete.
    @available(*, unavailable, message: "a results controller keeps no cache on GraphStore: drop the call")
    public static func deleteCache(withName name: String?) {}
}

#endif
