import Foundation
import Testing
@testable import GraphStore

/// The notifications a context posts, with Core Data's names and keys, and the same as an
/// async sequence.
@Suite struct ContextNotificationTests {
    /// Every notification of `names` posted for `context` while `body` runs, with its user info.
    private func posted(_ names: [Notification.Name], by context: ManagedObjectContext, _ body: () throws -> Void) rethrows -> [(Notification.Name, [AnyHashable: Any])] {
        let seen = NotificationLog()
        let observers = names.map { name in
            NotificationCenter.default.addObserver(forName: name, object: context, queue: nil) { note in seen.append(note.name, note.userInfo ?? [:]) }
        }
        defer { observers.forEach(NotificationCenter.default.removeObserver) }
        try body()
        return seen.entries
    }

    private func titles(_ info: [AnyHashable: Any], _ key: String) -> [String] {
        ((info[key] as? Set<ManagedObject>) ?? []).map { (try? $0.get("title", as: String.self)) ?? $0.objectID.description }.sorted()
    }

    @Test func processPendingChangesPostsWhatChangedSinceTheLastEvent() throws {
        let (context, _) = try ValidationFixtures.newContext(try Fixtures.bookStoreModel())
        let kept = try context.insert("Book")
        try kept.set("title", "Kept")
        try context.save()
        let seen = try posted([ManagedObjectContext.objectsDidChangeNotification], by: context) {
            let added = try context.insert("Book")
            try added.set("title", "Added")
            try kept.set("price", 3.0)
            let gone = try context.insert("Book")
            try context.delete(gone)              // inserted and deleted in one event: neither
            context.processPendingChanges()
            context.processPendingChanges()       // nothing new: nothing posted
            try added.set("price", 1.0)           // a change to an insert of an earlier event
            try context.delete(kept)
            context.processPendingChanges()
        }
        #expect(seen.count == 2)
        #expect(titles(seen[0].1, ContextNotificationKey.inserted) == ["Added"])
        #expect(titles(seen[0].1, ContextNotificationKey.updated) == ["Kept"])
        #expect(seen[0].1[ContextNotificationKey.deleted] == nil)
        #expect(titles(seen[1].1, ContextNotificationKey.updated) == ["Added"])
        #expect(titles(seen[1].1, ContextNotificationKey.deleted) == ["Kept"])
        #expect((seen[1].1[ContextNotificationKey.deleted] as? Set<ManagedObject>)?.map(\.objectID) == [kept.objectID])
    }

    @Test func aSavePostsWillSaveThenDidSaveWithPermanentIDs() throws {
        let (context, _) = try ValidationFixtures.newContext(try Fixtures.bookStoreModel())
        let names = [ManagedObjectContext.objectsDidChangeNotification, ManagedObjectContext.willSaveObjectsNotification,
                     ManagedObjectContext.didSaveObjectsNotification, ManagedObjectContext.didSaveObjectIDsNotification]
        let book = try context.insert("Book")
        try book.set("title", "Dune")
        let seen = try posted(names, by: context) { try context.save() }
        #expect(seen.map(\.0.rawValue) == [
            "NSManagedObjectContextObjectsDidChangeNotification", "NSManagedObjectContextWillSaveNotification",
            "NSManagedObjectContextDidSaveNotification", "NSManagedObjectContextDidSaveObjectIDsNotification",
        ])
        #expect(titles(seen[2].1, ContextNotificationKey.inserted) == ["Dune"])
        let ids = try #require(seen[3].1[ContextNotificationKey.insertedObjectIDs] as? Set<ObjectID>)
        #expect(ids == [book.objectID] && !book.objectID.isTemporary)
    }

    @Test func anotherContextsSaveMergedThroughItsNotificationIsAnnounced() throws {
        let (context, path) = try ValidationFixtures.newContext(try Fixtures.bookStoreModel())
        let book = try context.insert("Book")
        try book.set("title", "One")
        try context.save()
        let other = try ValidationFixtures.reopen(path, try Fixtures.bookStoreModel())
        let saved = NotificationLog()
        let observer = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didSaveObjectsNotification, object: other, queue: nil) {
            saved.append($0.name, $0.userInfo ?? [:])
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try other.existingObject(entity: "Book", primaryKey: 1).set("title", "Uno")
        try other.insert("Book").set("title", "Two")
        try other.save()
        let entry = try #require(saved.entries.first)
        let note = Notification(name: entry.0, object: other, userInfo: entry.1)
        let seen = try posted([ManagedObjectContext.objectsDidChangeNotification], by: context) { try context.mergeChanges(fromContextDidSave: note) }
        #expect(try book.get("title", as: String.self) == "Uno")
        #expect(titles(seen.last?.1 ?? [:], ContextNotificationKey.refreshed) == ["Uno"])
        // Objects the other context inserted are named by ID (none is made before a fetch).
        #expect((seen.last?.1[ContextNotificationKey.insertedObjectIDs] as? Set<ObjectID>)?.map(\.primaryKey) == [2])
    }

    @Test func rollbackAndResetAreAnnounced() throws {
        let (context, _) = try ValidationFixtures.newContext(try Fixtures.bookStoreModel())
        let kept = try context.insert("Book")
        try kept.set("title", "Kept")
        try context.save()
        try kept.set("title", "Changed")
        try context.insert("Book").set("title", "Dropped")
        context.processPendingChanges()
        let rolledBack = posted([ManagedObjectContext.objectsDidChangeNotification], by: context) { context.rollback() }
        #expect(rolledBack.count == 1)
        #expect(titles(rolledBack[0].1, ContextNotificationKey.refreshed) == ["Kept"])
        #expect((rolledBack[0].1[ContextNotificationKey.deleted] as? Set<ManagedObject>)?.count == 1)
        let reset = posted([ManagedObjectContext.objectsDidChangeNotification], by: context) { context.reset() }
        #expect((reset.first?.1[ContextNotificationKey.invalidatedAll] as? [ObjectID]) == [kept.objectID])
    }

    @Test func eventsArriveAsAnAsyncSequence() async throws {
        let (context, _) = try ValidationFixtures.newContext(try Fixtures.bookStoreModel())
        let events = context.events()
        let book = try context.insert("Book")
        try book.set("title", "Dune")
        let temporary = book.objectID
        try context.save()
        var received: [ContextEvent] = []
        for await event in events {
            received.append(event)
            if case .didSave = event { break }
        }
        #expect(received == [.objectsDidChange(ObjectChanges(inserted: [temporary])), .willSave, .didSave(ObjectChanges(inserted: [book.objectID]))])
    }

    @Test func undoIsAnEventOfItsOwn() throws {
        let (context, _) = try ValidationFixtures.newContext(try Fixtures.bookStoreModel())
        let book = try context.insert("Book")
        try book.set("title", "Dune")
        try context.save()
        let undo = ContextUndoManager()
        context.undoManager = undo
        try book.set("title", "Arrakis")
        undo.endEvent()
        context.processPendingChanges()
        let seen = try posted([ManagedObjectContext.objectsDidChangeNotification], by: context) { try undo.undo() }
        #expect(titles(seen.first?.1 ?? [:], ContextNotificationKey.updated) == ["Dune"])
    }
}

/// Notifications seen by an observer (the observer's block is `@Sendable`).
final class NotificationLog: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [(Notification.Name, [AnyHashable: Any])] = []

    func append(_ name: Notification.Name, _ info: [AnyHashable: Any]) {
        lock.lock()
        seen.append((name, info))
        lock.unlock()
    }

    var entries: [(Notification.Name, [AnyHashable: Any])] {
        lock.lock()
        defer { lock.unlock() }
        return seen
    }
}
