import Foundation

// Core Data's names for the stack (container, coordinator, store, context), declared
// unavailable so that a port's compile errors say what to write on GraphStore. Nothing calls
// these: each body forwards to the GraphStore call its message names, so that the message
// and the code cannot drift apart. Where Core Data itself is at hand (Apple's platforms),
// the names are Core Data's, and GraphStore declares none of them.

#if !canImport(CoreData)

/// Core Data's `NSPersistentContainer`: on GraphStore, ``PersistentContainer``.
@available(*, unavailable, renamed: "PersistentContainer")
public typealias NSPersistentContainer = PersistentContainer

/// Core Data's `NSPersistentCloudKitContainer`: there is no CloudKit on Linux; a
/// ``PersistentContainer`` opens the same store (a mirrored store's history is kept, its
/// mirroring tables are not).
@available(*, unavailable, message: "no CloudKit mirroring on GraphStore: use PersistentContainer(path:model:)")
public typealias NSPersistentCloudKitContainer = PersistentContainer

/// Core Data's `NSPersistentStoreCoordinator`: GraphStore has no coordinator; a context
/// works on one ``PersistentStore``.
@available(*, unavailable, message: "no coordinator on GraphStore: open the store with PersistentStore(path:model:readOnly:) or PersistentStore.create(at:model:), and make contexts on it with ManagedObjectContext(store:)")
public typealias NSPersistentStoreCoordinator = PersistentStore

/// Core Data's `NSPersistentStore`: on GraphStore, ``PersistentStore`` (an SQLite store).
@available(*, unavailable, renamed: "PersistentStore")
public typealias NSPersistentStore = PersistentStore

/// Core Data's `NSPersistentStoreDescription`: GraphStore takes a store's path and options
/// as the arguments of ``PersistentStore/init(path:model:readOnly:)``.
@available(*, unavailable, message: "no store descriptions on GraphStore: pass the path and options to PersistentStore(path:model:readOnly:), or PersistentContainer(path:model:)")
public typealias NSPersistentStoreDescription = PersistentStore

/// Core Data's `NSManagedObjectContext`: on GraphStore, ``ManagedObjectContext``.
@available(*, unavailable, renamed: "ManagedObjectContext")
public typealias NSManagedObjectContext = ManagedObjectContext

/// Core Data's `NSManagedObjectContextConcurrencyType`: a GraphStore context is confined to
/// the task or actor that made it by the compiler, so it has no queue to choose.
@available(*, unavailable, message: "a context has no queue on GraphStore: make it with ManagedObjectContext(store:), ManagedObjectContext(parent:) or container.newBackgroundContext()")
public enum NSManagedObjectContextConcurrencyType {
    /// Core Data's main-queue context: on GraphStore, `container.viewContext`.
    case mainQueueConcurrencyType
    /// Core Data's private-queue context: on GraphStore, `container.newBackgroundContext()`.
    case privateQueueConcurrencyType
}

extension ManagedObjectContext {
    /// Core Data's `init(concurrencyType:)`: a GraphStore context is made on a store or on a
    /// parent context, and is never made without one.
    ///
    /// There is nothing to forward to (a context needs its store), so the body fails.
    @available(*, unavailable, message: "a context is made on a store, ManagedObjectContext(store:), or on a parent, ManagedObjectContext(parent:) (Core Data's context.parent = …)")
    public convenience init?(concurrencyType: NSManagedObjectContextConcurrencyType) {
        return nil
    }

    /// Core Data's `perform(_:)`: a GraphStore context is confined to its task or actor by
    /// the compiler, so code that uses it runs directly.
    @available(*, unavailable, message: "a context is confined to its task or actor by the compiler: run the block's code directly (background work goes in container.performBackgroundTask { context in … })")
    public func perform<T>(_ block: () throws -> T) rethrows -> T {
        try block()
    }

    /// Core Data's `performAndWait(_:)`: as ``perform(_:)``, the code runs directly.
    @available(*, unavailable, message: "a context is confined to its task or actor by the compiler: run the block's code directly")
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        try block()
    }

    /// Core Data's `persistentStoreCoordinator`: a GraphStore context works on one store.
    @available(*, unavailable, renamed: "store")
    public var persistentStoreCoordinator: PersistentStore { store }

    /// Core Data's `automaticallyMergesChangesFromParent`: a container's view context always
    /// merges the saves of its background contexts.
    @available(*, unavailable, message: "container.viewContext always merges background saves on GraphStore: drop the line")
    public var automaticallyMergesChangesFromParent: Bool {
        get { true }
        set {}  // Nothing to set: the merge cannot be turned off.
    }
}

extension PersistentContainer {
    /// Core Data's `init(name:)`, which finds `name.momd` in the app's bundle and keeps
    /// `name.sqlite` in its support folder: GraphStore opens the files it is given.
    @available(*, unavailable, message: "a container opens the files it is given: PersistentContainer(path: \"Name.sqlite\", model: try ModelFile(path: \"Name.xcdatamodeld\").model)")
    @MainActor
    public convenience init(name: String) throws {
        try self.init(path: name + ".sqlite", model: try ModelFile(path: name + ".xcdatamodeld").model)
    }

    /// Core Data's `init(name:managedObjectModel:)`: GraphStore opens the file it is given.
    @available(*, unavailable, message: "a container opens the file it is given: PersistentContainer(path: \"Name.sqlite\", model: model)")
    @MainActor
    public convenience init(name: String, managedObjectModel model: ManagedObjectModel) throws {
        try self.init(path: name + ".sqlite", model: model)
    }

    /// Core Data's `loadPersistentStores(completionHandler:)`: a GraphStore container's
    /// store is open once the container is made (its init throws where Core Data would
    /// hand the error to this block).
    @available(*, unavailable, message: "PersistentContainer(path:model:) opens the store when it is made, and throws where Core Data hands this block an error: drop the call")
    @MainActor
    public func loadPersistentStores(completionHandler block: (PersistentStore, (any Error)?) -> Void) {
        block(viewContext.store, nil)
    }

    /// Core Data's `managedObjectModel`.
    @available(*, unavailable, renamed: "model")
    public var managedObjectModel: ManagedObjectModel { model }

    /// Core Data's `persistentStoreCoordinator`: each GraphStore context has its own
    /// connection to the store.
    @available(*, unavailable, message: "no coordinator on GraphStore: each context has its store, context.store")
    @MainActor
    public var persistentStoreCoordinator: PersistentStore { viewContext.store }
}

#endif
