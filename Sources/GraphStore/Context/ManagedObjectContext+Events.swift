import Foundation
import OrderedCollections

/// What changed in a context since its last objects-did-change notification.
struct PendingEvent {
    /// Objects inserted in this event, appended without hashing (inserting is the hot path
    /// of seeding); one deleted again is left out when the event is posted, by its state.
    var inserted: [ManagedObject] = []
    var updated: OrderedDictionary<ObjectIdentifier, ManagedObject> = [:]
    var deleted: OrderedDictionary<ObjectIdentifier, ManagedObject> = [:]
    var refreshed: OrderedDictionary<ObjectIdentifier, ManagedObject> = [:]
    /// The IDs of every object a reset let go of; nil without a reset.
    var invalidatedAll: [ObjectID]?
    /// The values and to-ones of objects noted as updated, as they were before their first
    /// change in this event, where the committed snapshot is not that state (for
    /// ``ManagedObject/changedValuesForCurrentEvent()``).
    var before: [ObjectIdentifier: (values: ValueSlots, toOne: ToOneSlots)] = [:]
    /// Objects another context inserted, merged here: named by ID only (no object is made
    /// for them before something fetches them, so that classes registered later apply).
    var insertedElsewhere: Set<ObjectID> = []

    var isEmpty: Bool {
        inserted.isEmpty && updated.isEmpty && deleted.isEmpty && refreshed.isEmpty && invalidatedAll == nil
            && insertedElsewhere.isEmpty
    }
}

/// Posting the context's notifications (see `ContextNotifications.swift`).
extension ManagedObjectContext {
    /// Posts objects-did-change with what was inserted, updated and deleted since the last
    /// one (and what merges and reloads refreshed), to `NotificationCenter.default` and to
    /// every ``events()`` sequence; does nothing when nothing changed. Core Data calls it at
    /// the end of each run-loop turn; GraphStore calls it at the start of each save, merge,
    /// rollback and reset, and after each undo or redo. Call it where your program's own
    /// turn ends (after handling a request, a command, a UI event) for observers such as a
    /// ``FetchedResultsController`` to follow unsaved changes.
    ///
    /// ```swift
    /// try book.set("title", "Dune")
    /// context.processPendingChanges()     // observers see the update now
    /// ```
    public func processPendingChanges() {
        let event = pendingEvent
        pendingEvent = PendingEvent()
        eventNumber = eventNumber == Self.insertedInEvent - 1 ? 1 : eventNumber + 1
        guard !event.isEmpty else { return }
        let live = { (object: ManagedObject) in object.managedObjectContext === self && !object.isDeleted }
        var objects: [String: Set<ManagedObject>] = [:]
        objects[ContextNotificationKey.inserted] = Set(event.inserted.filter { $0.isInserted && $0.managedObjectContext === self })
        objects[ContextNotificationKey.updated] = Set(event.updated.values.filter(live))
        objects[ContextNotificationKey.deleted] = Set(event.deleted.values)
        objects[ContextNotificationKey.refreshed] = Set(event.refreshed.values.filter(live))
        post(Self.objectsDidChangeNotification, objects, invalidatedAll: event.invalidatedAll, insertedElsewhere: event.insertedElsewhere, event: ContextEvent.objectsDidChange)
    }

    /// An async sequence of this context's notifications, as IDs: for code that awaits
    /// changes rather than observing `NotificationCenter`. The sequence ends when the
    /// context goes away.
    ///
    /// ```swift
    /// for await event in context.events() {
    ///     if case .didSave(let saved) = event { print(saved.inserted.count, "inserted") }
    /// }
    /// ```
    public func events() -> AsyncStream<ContextEvent> {
        eventStreams.make()
    }

    /// Calls `listener` with each objects-did-change, will-save and did-save of this context,
    /// synchronously, after the notification is posted; returns the key that removes it.
    func addEventListener(_ listener: @escaping (ContextEvent) -> Void) -> Int {
        nextListenerKey += 1
        eventListeners.append((nextListenerKey, listener))
        return nextListenerKey
    }

    func removeEventListener(_ key: Int) {
        eventListeners.removeAll { $0.key == key }
    }

    private func tellListeners(_ event: ContextEvent) {
        // A listener may add or remove listeners: the walk is over a copy.
        for listener in eventListeners { listener.call(event) }
    }

    /// The stamp of an object inserted in the current event: the event's number with the top
    /// bit set (event numbers stay below it).
    private var insertedStamp: UInt32 { eventNumber | Self.insertedInEvent }
    static let insertedInEvent: UInt32 = 1 << 31

    /// Notes an object inserted now.
    @inline(__always)
    func noteInserted(_ object: ManagedObject) {
        object.eventStamp = insertedStamp
        pendingEvent.inserted.append(object)
    }

    /// Notes a change of an object (once per event: the stamp says it is noted already, or
    /// inserted in this event, which announces it whole).
    @inline(__always)
    func noteChanged(_ object: ManagedObject) {
        guard object.eventStamp & ~Self.insertedInEvent != eventNumber else { return }
        object.eventStamp = eventNumber
        pendingEvent.updated[ObjectIdentifier(object)] = object
        // The state before this event's first change, where the committed snapshot is not it
        // (an object changed in an earlier event too, or inserted in one): a bulk update of
        // saved objects keeps no second copy.
        if object.hasData, object.snapshot != nil || object.isInserted {
            pendingEvent.before[ObjectIdentifier(object)] = (object.values, object.toOne)
        }
    }

    /// Notes an object deleted now; one inserted in this event is left out of it instead.
    func noteDeleted(_ object: ManagedObject) {
        let key = ObjectIdentifier(object)
        pendingEvent.updated.removeValue(forKey: key)
        if object.eventStamp != insertedStamp { pendingEvent.deleted[key] = object }
    }

    /// Notes an object read again from the store (`gone`: its row is gone and it left).
    func noteRefreshed(_ object: ManagedObject, gone: Bool) {
        let key = ObjectIdentifier(object)
        if gone {
            pendingEvent.updated.removeValue(forKey: key)
            pendingEvent.deleted[key] = object
        } else {
            pendingEvent.refreshed[key] = object
        }
    }

    /// Notes that every object left the context (`ids`: theirs).
    func noteInvalidatedAll(_ ids: [ObjectID]) {
        pendingEvent = PendingEvent()
        pendingEvent.invalidatedAll = ids
    }

    /// Posts will-save.
    func postWillSave() {
        NotificationCenter.default.post(name: Self.willSaveObjectsNotification, object: self, userInfo: nil)
        if !eventStreams.isEmpty { eventStreams.yield(.willSave) }
        tellListeners(.willSave)
    }

    /// Posts did-save and did-save-object-IDs with what a save wrote; returns the IDs.
    @discardableResult
    func postDidSave(inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject]) -> ObjectChanges {
        let objects = [
            ContextNotificationKey.inserted: Set(inserted), ContextNotificationKey.updated: Set(updated), ContextNotificationKey.deleted: Set(deleted),
        ]
        let saved = post(Self.didSaveObjectsNotification, objects, invalidatedAll: nil, insertedElsewhere: [], event: ContextEvent.didSave, needsIDs: true)
        let ids: [AnyHashable: Any] = [
            ContextNotificationKey.insertedObjectIDs: saved.inserted,
            ContextNotificationKey.updatedObjectIDs: saved.updated,
            ContextNotificationKey.deletedObjectIDs: saved.deleted,
        ]
        NotificationCenter.default.post(name: Self.didSaveObjectIDsNotification, object: self, userInfo: ids)
        return saved
    }

    /// Posts `name` with the non-empty sets of `objects`, and hands the same, as IDs, to the
    /// event sequences and listeners. The IDs are gathered only when something takes them
    /// (`needsIDs`, a sequence or a listener): each set costs a hash per object, and a save
    /// of a seeded store announces every object it inserted.
    @discardableResult
    private func post(
        _ name: Notification.Name, _ objects: [String: Set<ManagedObject>], invalidatedAll: [ObjectID]?, insertedElsewhere: Set<ObjectID>,
        event: (ObjectChanges) -> ContextEvent, needsIDs: Bool = false
    ) -> ObjectChanges {
        var info: [AnyHashable: Any] = [:]
        var changes = ObjectChanges(invalidatedAll: invalidatedAll != nil)
        let gathersIDs = needsIDs || !eventListeners.isEmpty || !eventStreams.isEmpty
        for (key, set) in objects where !set.isEmpty {
            info[key] = set
            guard gathersIDs else { continue }
            let ids = Set(set.lazy.map(\.objectID))
            switch key {
            case ContextNotificationKey.inserted: changes.inserted = ids
            case ContextNotificationKey.updated: changes.updated = ids
            case ContextNotificationKey.deleted: changes.deleted = ids
            default: changes.refreshed = ids
            }
        }
        if !insertedElsewhere.isEmpty {
            // Objects another context inserted are named by ID only (see `mergeChanges`).
            changes.inserted.formUnion(insertedElsewhere)
            info[ContextNotificationKey.insertedObjectIDs] = insertedElsewhere
        }
        // Core Data's value: the IDs of every object the context let go of.
        if let invalidatedAll { info[ContextNotificationKey.invalidatedAll] = invalidatedAll }
        NotificationCenter.default.post(name: name, object: self, userInfo: info)
        if gathersIDs {
            if !eventStreams.isEmpty { eventStreams.yield(event(changes)) }
            tellListeners(event(changes))
        }
        return changes
    }
}
