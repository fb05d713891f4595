import Foundation
import Synchronization

/// A store and its model, with a context for the main actor and contexts for background
/// work, as Core Data's `NSPersistentContainer`.
///
/// ```swift
/// let container = try await PersistentContainer(path: "BookStore.sqlite", model: try ModelFile.load(path: "BookStore.xcdatamodeld"))
/// try await container.performBackgroundTask { context in
///     let book = Book(context: context)
///     book.title = "The first book"
///     try context.save()
/// }
/// let books = try container.viewContext.fetch(FetchRequest<Book>())   // on the main actor
/// ```
///
/// Each context has its own connection to the store and belongs to one isolation domain:
/// ``ManagedObjectContext`` and ``ManagedObject`` are not `Sendable`, so the compiler refuses
/// to hand one to another task or actor. What crosses is an ``ObjectID`` (`Sendable`), looked
/// up in the other context with ``ManagedObjectContext/object(for:)``.
///
/// A save in a background context is merged into ``viewContext``, as Core Data's
/// `automaticallyMergesChangesFromParent`: its objects that the save changed and that have no
/// unsaved changes of their own are read again (deleted ones leave it). Objects with unsaved
/// changes take the saved values of the properties they did not change and keep their own
/// changes on top, as Core Data's merge does: saving them then writes both, property by
/// property. A property both changed to different values keeps this context's value and
/// stays a conflict (``StoreError/optimisticLockingFailure(_:)``, 133020) for its save,
/// never overwriting the other save silently (Core Data's merge lets the save overwrite
/// it; ``MergePolicy/mergeByPropertyObjectTrump`` does so on purpose). A merge
/// that cannot read the store keeps its error as a failed typed access does (see
/// ``AccessError``). Background contexts see the store as it is when they read it; a
/// long-lived one may merge others' saves with ``ManagedObjectContext/mergeChanges(_:)``.
public final class PersistentContainer: Sendable {
    /// The store file.
    public let path: String
    /// The model the store is opened with.
    public let model: ManagedObjectModel
    /// The context of the main actor, for the app's interface.
    @MainActor public let viewContext: ManagedObjectContext
    /// The merge of the latest save in a context of ``newBackgroundContext()``. Each merge
    /// waits for the one before it, so saves are merged in the order they were made, and only
    /// the latest is held.
    private let latestMerge = Mutex<Task<Void, Never>?>(nil)

    /// Opens the store at `path` with `model` for reading and writing, creating it (in Core
    /// Data's layout) when there is no file.
    @MainActor
    public init(path: String, model: ManagedObjectModel) throws {
        self.path = path
        self.model = model
        let store = FileManager.default.fileExists(atPath: path)
            ? try PersistentStore(path: path, model: model, readOnly: false)
            : try PersistentStore.create(at: path, model: model)
        viewContext = ManagedObjectContext(store: store)
    }

    /// A new context on its own connection to the store, for the caller's isolation domain.
    /// Its saves are merged into ``viewContext`` (asynchronously, on the main actor).
    public func newBackgroundContext() throws -> ManagedObjectContext {
        let context = try makeContext()
        context.didSaveChanges = { [self] changed in
            latestMerge.withLock { latest in
                let previous = latest
                latest = Task { @MainActor in
                    await previous?.value
                    mergeIntoViewContext(changed)
                }
            }
        }
        return context
    }

    /// Returns once every save made so far in a context of ``newBackgroundContext()`` has
    /// been merged into ``viewContext`` (the merges run on the main actor after the saves).
    ///
    /// ```swift
    /// try background.save()
    /// await container.mergesOfBackgroundSaves()   // viewContext now shows the save
    /// ```
    public func mergesOfBackgroundSaves() async {
        await latestMerge.withLock { $0 }?.value
    }

    /// Runs `body` with a new background context, off the main actor; when it returns, what
    /// it saved has been merged into ``viewContext``.
    ///
    /// ```swift
    /// let id = try await container.performBackgroundTask { context in
    ///     let book = Book(context: context)
    ///     try context.save()
    ///     return book.objectID           // an ObjectID crosses; the object does not
    /// }
    /// ```
    public func performBackgroundTask<T: Sendable>(_ body: @escaping @Sendable (ManagedObjectContext) throws -> T) async throws -> T {
        let outcome = await Task.detached { [self] () -> (Result<T, any Error>, ObjectChanges) in
            let context: ManagedObjectContext
            do { context = try makeContext() } catch { return (.failure(error), ObjectChanges()) }
            var changed = ObjectChanges()
            context.didSaveChanges = {
                changed.inserted.formUnion($0.inserted)
                changed.updated.formUnion($0.updated)
                changed.deleted.formUnion($0.deleted)
            }
            return (Result { try body(context) }, changed)
        }.value
        if !outcome.1.isEmpty { await mergeIntoViewContext(outcome.1) }
        return try outcome.0.get()
    }

    private func makeContext() throws -> ManagedObjectContext {
        ManagedObjectContext(store: try PersistentStore(path: path, model: model, readOnly: false))
    }

    @MainActor private func mergeIntoViewContext(_ changed: ObjectChanges) {
        guard let first = changed.updated.first ?? changed.deleted.first ?? changed.inserted.first else { return }
        do {
            try viewContext.mergeChanges(changed)
        } catch {
            viewContext.accessErrorLog.append(AccessError(objectID: first, key: "(merge)", underlying: error))
        }
    }
}

extension ManagedObjectContext {
    /// Takes in another context's save: each object of `ids` registered here is brought up
    /// to date. One without unsaved changes is read again from the store (one whose row is
    /// gone leaves the context); one with unsaved changes takes the saved values of the
    /// properties it did not change and keeps its own changes on top
    /// (``refresh(_:mergeChanges:)`` with `mergeChanges` true), so that saving it later
    /// combines both, property by property, as Core Data's automatic merge does. Core Data's
    /// `mergeChanges(fromContextDidSave:)`.
    ///
    /// Where both changed the same property to different values, Core Data's merge keeps
    /// this context's value and its save then writes over the other one without a word.
    /// GraphStore keeps this context's value too, but the object goes on checking the
    /// version it read: its save meets the other change as a conflict (133020) under the
    /// default ``MergePolicy/error``, and ``MergePolicy/mergeByPropertyObjectTrump`` saves it
    /// as Core Data would.
    ///
    /// ```swift
    /// try context.mergeChanges(savedIDs)      // IDs another context saved
    /// ```
    public func mergeChanges(_ ids: [ObjectID]) throws {
        try mergeChanges(ObjectChanges(updated: Set(ids)))
    }

    /// Takes in another context's save as ``mergeChanges(_:)-([ObjectID])`` does, and
    /// announces it: objects-did-change names the saved objects registered here (updated and
    /// deleted ones as refreshed and deleted) and those the other context inserted, so that
    /// observers such as a ``FetchedResultsController`` follow another context's saves.
    /// Objects the other context inserted are named by ID only (under
    /// `ContextNotificationKey.insertedObjectIDs`), where Core Data puts objects under
    /// `inserted`: none is made here before something fetches it.
    public func mergeChanges(_ changes: ObjectChanges) throws {
        processPendingChanges()
        defer { processPendingChanges() }
        let saved = (changes.updated.union(changes.deleted)).compactMap { registered[$0] }
        let unchanged = saved.filter { !$0.hasChanges }
        if !unchanged.isEmpty { try reload(unchanged) }
        for object in saved where object.isUpdated { try refresh(object, mergeChanges: true, keepingCollisions: true) }
        // (A relationship read again above may have made some of them already.)
        for id in changes.inserted where id.storeUUID == store.uuid {
            // The ID of this context's own connection, not the other context's.
            guard let key = id.primaryKey, let mapping = store.mapping(number: id.mapping.number) else { continue }
            pendingEvent.insertedElsewhere.insert(store.objectID(mapping, primaryKey: key))
        }
    }

    /// Takes in another context's did-save notification: Core Data's
    /// `mergeChanges(fromContextDidSave:)`.
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(forName: ManagedObjectContext.didSaveObjectsNotification, object: other, queue: nil) { note in
    ///     try? context.mergeChanges(fromContextDidSave: note)
    /// }
    /// ```
    public func mergeChanges(fromContextDidSave notification: Notification) throws {
        try mergeChanges(ObjectChanges(didSave: notification))
    }
}
