import Foundation
import Testing
@testable import GraphStore

/// Child contexts (`ManagedObjectContext(parent:)`): a scratch pad over another context
/// whose save pushes into the parent, not to disk. The edit-with-cancel flow is the one of
/// Core Data by Tutorials' SurfJournal (`JournalEntryViewController` edits a journal entry in
/// a child of the main context; Save saves the child then the main context, Cancel drops the
/// child), ported onto the BookStore model.
@Suite struct ChildContextTests {
    /// A store with Fiction holding "One" (10) and "Two" (15), and a context that read both.
    private func seeded() throws -> (ManagedObjectContext, String) {
        let path = try Fixtures.newStorePath()
        let seeding = ManagedObjectContext(store: try PersistentStore.create(at: path, model: try Fixtures.bookStoreModel()))
        let fiction = try seeding.insert("BookCategory")
        try fiction.set("name", "Fiction")
        for (title, price) in [("One", 10.0), ("Two", 15.0)] {
            let book = try seeding.insert("Book")
            try book.set("title", title)
            try book.set("price", price)
            try book.setObject(fiction, forKey: "category")
        }
        try seeding.save()
        let context = try reopen(path)
        return (context, path)
    }

    private func reopen(_ path: String) throws -> ManagedObjectContext {
        ManagedObjectContext(store: try PersistentStore(path: path, model: try Fixtures.bookStoreModel(), readOnly: false))
    }

    private func book(_ title: String, in context: ManagedObjectContext) throws -> ManagedObject {
        let found = try context.fetch(FetchRequest(entityName: "Book", format: "title == %@", title))
        return try #require(found.first)
    }

    private func storedTitles(_ path: String) throws -> [String] {
        try reopen(path).fetch("Book").compactMap { try $0.get("title", as: String.self) }.sorted()
    }

    @Test func editSavedInTheChildIsTheParentsUnsavedChangeUntilTheParentSaves() throws {
        let (main, path) = try seeded()
        let entry = try book("One", in: main)
        let scratch = ManagedObjectContext(parent: main)
        let childEntry = try scratch.object(for: entry.objectID)
        try childEntry.set("title", "One, revised")
        #expect(try entry.get("title", as: String.self) == "One")
        try scratch.save()
        #expect(!scratch.hasChanges)
        #expect(main.hasChanges)
        #expect(main.updatedObjects.map(\.objectID) == [entry.objectID])
        #expect(try entry.get("title", as: String.self) == "One, revised")
        #expect(try storedTitles(path) == ["One", "Two"])
        try main.save()
        #expect(try storedTitles(path) == ["One, revised", "Two"])
    }

    @Test func droppingTheChildCancelsItsEdits() throws {
        let (main, path) = try seeded()
        let entry = try book("One", in: main)
        do {
            let scratch = ManagedObjectContext(parent: main)
            try scratch.object(for: entry.objectID).set("title", "never saved")
            _ = try scratch.insert("Book")
        }
        #expect(!main.hasChanges)
        #expect(try entry.get("title", as: String.self) == "One")
        #expect(main.children.allSatisfy { $0.context == nil })
        try main.save()
        #expect(try storedTitles(path) == ["One", "Two"])
    }

    @Test func theChildReadsTheParentsUnsavedState() throws {
        let (main, _) = try seeded()
        try book("One", in: main).set("price", 99.0)
        try main.delete(try book("Two", in: main))
        let added = try main.insert("Book")
        try added.set("title", "Three")
        try added.set("price", 50.0)
        let scratch = ManagedObjectContext(parent: main)
        var request = try FetchRequest(entityName: "Book", format: "price > 20")
        request.sortKeys = [SortKey("price", ascending: false)]
        let expensive = try scratch.fetch(request)
        #expect(try expensive.map { try $0.get("title", as: String.self) } == ["One", "Three"])
        #expect(try scratch.count(for: FetchRequest(entityName: "Book")) == 2)
        let borrowed = try scratch.object(for: added.objectID)
        #expect(borrowed !== added)
        #expect(!borrowed.isInserted)
        #expect(try borrowed.get("title", as: String.self) == "Three")
    }

    @Test func anInsertWithRelationshipsReachesTheStoreThroughTheParent() throws {
        let (main, path) = try seeded()
        let scratch = ManagedObjectContext(parent: main)
        let fiction = try #require(try scratch.fetch("BookCategory").first)
        let three = try scratch.insert("Book")
        try three.set("title", "Three")
        try three.setObject(fiction, forKey: "category")
        let page = try scratch.insert("Page")
        try page.set("text", "first page")
        try three.add(page, toKey: "pages")
        try scratch.save()
        #expect(scratch.insertedObjects.isEmpty)
        let pushed = try main.object(for: three.objectID)
        #expect(pushed.isInserted)
        #expect(try pushed.object(forKey: "category")?.get("name", as: String.self) == "Fiction")
        #expect(try pushed.objects(forKey: "pages").map { try $0.get("text", as: String.self) } == ["first page"])
        #expect(try pushed.object(forKey: "category")?.objects(forKey: "books").count == 3)
        try main.save()
        // The parent's save gives the child's copy its permanent ID.
        #expect(!three.objectID.isTemporary)
        #expect(three.objectID == pushed.objectID)
        let rows = try Connection(path: path, mode: .readOnly).rows("SELECT ZTITLE, ZCATEGORY FROM ZBOOK ORDER BY Z_PK")
        #expect(rows.last == [.text("Three"), .integer(1)], "\(rows)")
        let pageRows = try Connection(path: path, mode: .readOnly).rows("SELECT ZTEXT, ZBOOK FROM ZPAGE")
        #expect(pageRows == [[.text("first page"), .integer(3)]], "\(pageRows)")
        // The reading context is kept: an object does not keep its context alive.
        let reader = try reopen(path)
        let stored = try book("Three", in: reader)
        #expect(try stored.object(forKey: "category")?.get("name", as: String.self) == "Fiction")
        #expect(try stored.objects(forKey: "pages").count == 1)
    }

    @Test func aDeleteRunsItsRulesInTheParent() throws {
        let (main, path) = try seeded()
        let scratch = ManagedObjectContext(parent: main)
        let one = try book("One", in: scratch)
        try scratch.delete(one)
        try scratch.save()
        #expect(main.deletedObjects.count == 1)
        let fiction = try #require(try main.fetch("BookCategory").first)
        #expect(try fiction.objects(forKey: "books").map { try $0.get("title", as: String.self) } == ["Two"])
        try main.save()
        #expect(try storedTitles(path) == ["Two"])
    }

    @Test func nestedChildrenSaveUpTheChain() throws {
        let (main, path) = try seeded()
        let middle = ManagedObjectContext(parent: main)
        let inner = ManagedObjectContext(parent: middle)
        let added = try inner.insert("Book")
        try added.set("title", "Deep")
        try inner.save()
        #expect(middle.hasChanges && !main.hasChanges)
        #expect(try middle.fetch(FetchRequest(entityName: "Book", format: "title == 'Deep'")).count == 1)
        try middle.save()
        #expect(main.insertedObjects.count == 1)
        try main.save()
        #expect(try storedTitles(path) == ["Deep", "One", "Two"])
        #expect(!added.objectID.isTemporary)
        // Temporary IDs of sibling children do not collide with the parent's.
        let a = try ManagedObjectContext(parent: main).insert("Book")
        let b = try main.insert("Book")
        #expect(a.objectID != b.objectID)
    }

    @Test func aChildSaveThatFailsValidationChangesNeitherContext() throws {
        let path = try Fixtures.newStorePath()
        let model = try ManagedObjectModel {
            EntityDescription("Note") { AttributeDescription("text", .string).required() }
        }
        let main = ManagedObjectContext(store: try PersistentStore.create(at: path, model: model))
        let scratch = ManagedObjectContext(parent: main)
        _ = try scratch.insert("Note")
        #expect(throws: ValidationError.self) { try scratch.save() }
        #expect(!main.hasChanges)
        #expect(scratch.insertedObjects.count == 1)
    }

    @Test func theChildPostsDidSaveAndTheParentObjectsDidChange() throws {
        let (main, _) = try seeded()
        let entry = try book("One", in: main)
        var parentEvents: [ContextEvent] = []
        let key = main.addEventListener { parentEvents.append($0) }
        defer { main.removeEventListener(key) }
        let scratch = ManagedObjectContext(parent: main)
        var childEvents: [ContextEvent] = []
        _ = scratch.addEventListener { childEvents.append($0) }
        try scratch.object(for: entry.objectID).set("title", "Changed")
        try scratch.save()
        #expect(childEvents.contains { if case .didSave(let changes) = $0 { changes.updated == [entry.objectID] } else { false } })
        #expect(parentEvents.contains { if case .objectsDidChange(let changes) = $0 { changes.updated.contains(entry.objectID) } else { false } })
    }
}
