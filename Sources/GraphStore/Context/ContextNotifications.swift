import Foundation
import Synchronization

/// The notifications a context posts, with Core Data's names and user-info keys, so that
/// code observing `NSManagedObjectContext` observes a ``ManagedObjectContext`` the same way.
///
/// ```swift
/// NotificationCenter.default.addObserver(forName: ManagedObjectContext.objectsDidChangeNotification, object: context, queue: nil) { note in
///     let inserted = note.userInfo?[ContextNotificationKey.inserted] as? Set<ManagedObject> ?? []
/// }
/// for await event in context.events() { … }    // the same, as an async sequence
/// ```
///
/// - objects-did-change: posted by ``ManagedObjectContext/processPendingChanges()`` with the
///   objects inserted, updated and deleted since the last one, and by merges, reloads,
///   rollbacks and resets with the objects they refreshed (an object whose row is gone is
///   reported as deleted; Core Data's `invalidated` keys are not used). Core Data calls
///   `processPendingChanges` at the end of each run-loop turn; Linux programs have no run
///   loop for it, so GraphStore calls it before every save and fetch-independent event
///   (undo, merge, rollback), and the app calls it where a turn of its own ends.
/// - will-save: at the start of ``ManagedObjectContext/save()``, before `willSave` hooks.
/// - did-save: once a save has committed, with the objects it inserted, updated and deleted;
///   then did-save-object-IDs with their IDs under the `…_objectIDs` keys.
extension ManagedObjectContext {
    /// `NSManagedObjectContextObjectsDidChangeNotification`.
    public static let objectsDidChangeNotification = Notification.Name("NSManagedObjectContextObjectsDidChangeNotification")
    /// `NSManagedObjectContextWillSaveNotification`.
    public static let willSaveObjectsNotification = Notification.Name("NSManagedObjectContextWillSaveNotification")
    /// `NSManagedObjectContextDidSaveNotification`.
    public static let didSaveObjectsNotification = Notification.Name("NSManagedObjectContextDidSaveNotification")
    /// `NSManagedObjectContextDidSaveObjectIDsNotification`: the did-save's IDs only.
    public static let didSaveObjectIDsNotification = Notification.Name("NSManagedObjectContextDidSaveObjectIDsNotification")
}

/// The user-info keys of a context's notifications, with Core Data's values
/// (`NSInsertedObjectsKey` is `"inserted"`, …). Objects come as `Set<ManagedObject>`, IDs as
/// `Set<ObjectID>` (in did-save-object-IDs, and for objects another context inserted).
public enum ContextNotificationKey {
    /// `NSInsertedObjectsKey`.
    public static let inserted = "inserted"
    /// `NSUpdatedObjectsKey`.
    public static let updated = "updated"
    /// `NSDeletedObjectsKey`.
    public static let deleted = "deleted"
    /// `NSRefreshedObjectsKey`: objects read again from the store (a merge, a reload).
    public static let refreshed = "refreshed"
    /// `NSInvalidatedAllObjectsKey`: the context was reset; the IDs of every object it let go of.
    public static let invalidatedAll = "invalidatedAll"
    /// `NSInsertedObjectIDsKey`.
    public static let insertedObjectIDs = "inserted_objectIDs"
    /// `NSUpdatedObjectIDsKey`.
    public static let updatedObjectIDs = "updated_objectIDs"
    /// `NSDeletedObjectIDsKey`.
    public static let deletedObjectIDs = "deleted_objectIDs"
    /// `NSRefreshedObjectIDsKey`.
    public static let refreshedObjectIDs = "refreshed_objectIDs"
}

/// One notification of a context, as its async sequence (``ManagedObjectContext/events()``)
/// delivers it: object IDs, which may cross to another task.
public enum ContextEvent: Sendable, Hashable {
    /// Objects changed (objects-did-change).
    case objectsDidChange(ObjectChanges)
    /// A save is starting (will-save).
    case willSave
    /// A save committed (did-save): what it inserted, updated and deleted, by permanent ID.
    case didSave(ObjectChanges)
}

/// The objects one notification is about, by ID.
public struct ObjectChanges: Sendable, Hashable {
    /// Objects inserted (for a did-save, by the IDs they were saved under).
    public var inserted: Set<ObjectID> = []
    /// Objects whose values or relationships changed.
    public var updated: Set<ObjectID> = []
    /// Objects deleted.
    public var deleted: Set<ObjectID> = []
    /// Objects read again from the store.
    public var refreshed: Set<ObjectID> = []
    /// Whether the context was reset.
    public var invalidatedAll = false

    /// Whether nothing is named.
    public var isEmpty: Bool {
        inserted.isEmpty && updated.isEmpty && deleted.isEmpty && refreshed.isEmpty && !invalidatedAll
    }

    /// Creates a set of changes.
    public init(
        inserted: Set<ObjectID> = [], updated: Set<ObjectID> = [], deleted: Set<ObjectID> = [], refreshed: Set<ObjectID> = [],
        invalidatedAll: Bool = false
    ) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.refreshed = refreshed
        self.invalidatedAll = invalidatedAll
    }

    /// The changes a did-save notification of another context carries: its objects' or
    /// IDs' sets, whichever it has. `mergeChanges(fromContextDidSave:)` reads this.
    public init(didSave notification: Notification) {
        let info = notification.userInfo ?? [:]
        func ids(_ objectsKey: String, _ idsKey: String) -> Set<ObjectID> {
            if let ids = info[idsKey] as? Set<ObjectID> { return ids }
            return Set((info[objectsKey] as? Set<ManagedObject> ?? []).map(\.objectID))
        }
        inserted = ids(ContextNotificationKey.inserted, ContextNotificationKey.insertedObjectIDs)
        updated = ids(ContextNotificationKey.updated, ContextNotificationKey.updatedObjectIDs)
        deleted = ids(ContextNotificationKey.deleted, ContextNotificationKey.deletedObjectIDs)
    }
}

/// The async sequences open on a context: each event is yielded to every one. Shared with
/// the sequences' termination handlers, which may run on another thread.
final class ContextEventStreams: Sendable {
    private let continuations = Mutex<[Int: AsyncStream<ContextEvent>.Continuation]>([:])
    private let nextKey = Mutex(0)

    var isEmpty: Bool { continuations.withLock { $0.isEmpty } }

    func make() -> AsyncStream<ContextEvent> {
        let key = nextKey.withLock { key in
            key += 1
            return key
        }
        let (stream, continuation) = AsyncStream<ContextEvent>.makeStream(bufferingPolicy: .unbounded)
        continuation.onTermination = { [weak self] _ in self?.continuations.withLock { _ = $0.removeValue(forKey: key) } }
        continuations.withLock { $0[key] = continuation }
        return stream
    }

    func yield(_ event: ContextEvent) {
        for continuation in continuations.withLock({ Array($0.values) }) { continuation.yield(event) }
    }

    func finish() {
        for continuation in continuations.withLock({ Array($0.values) }) { continuation.finish() }
    }
}
