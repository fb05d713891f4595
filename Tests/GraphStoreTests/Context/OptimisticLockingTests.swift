import Foundation
import Testing
@testable import GraphStore

/// A change saved by someone else between this context's read and its save is a conflict
/// (133020) on every path that reads an object into the context, never a silent overwrite.
/// "Someone else" is a second connection to the same file, as another process would be.
@Suite struct OptimisticLockingTests {
    /// A store with two categories and three books (Book/p1 "One" at 10 in Fiction/p1).
    private func seeded() throws -> (ManagedObjectContext, String) {
        let path = try Fixtures.newStorePath()
        let seeding = ManagedObjectContext(store: try PersistentStore.create(at: path, model: try Fixtures.bookStoreModel()))
        let fiction = try seeding.insert("BookCategory")
        try fiction.set("name", "Fiction")
        try seeding.insert("BookCategory").set("name", "Poetry")
        for (title, price) in [("One", 10.0), ("Two", 15.0), ("Three", 20.0)] {
            let book = try seeding.insert("Book")
            try book.set("title", title)
            try book.set("price", price)
            try book.setObject(fiction, forKey: "category")
        }
        try seeding.save()
        return (try open(path), path)
    }

    private func open(_ path: String) throws -> ManagedObjectContext {
        ManagedObjectContext(store: try PersistentStore(path: path, model: try Fixtures.bookStoreModel(), readOnly: false))
    }

    /// Another writer sets one attribute of one object and saves.
    private func otherSaves(_ path: String, _ entity: String, _ key: Int64, _ attribute: String, _ value: AttributeValue) throws {
        let other = try open(path)
        try other.existingObject(entity: entity, primaryKey: key).setValue(value, forKey: attribute)
        try other.save()
    }

    private func otherDeletes(_ path: String, _ entity: String, _ key: Int64) throws {
        let other = try open(path)
        try other.delete(try other.existingObject(entity: entity, primaryKey: key))
        try other.save()
    }

    private func rows(_ path: String, _ sql: String) throws -> [[String]] {
        try Connection(path: path, mode: .readOnly).rows(sql).map { $0.map(\.description) }
    }

    /// The conflicts a save throws (none when it succeeds).
    private func conflicts(_ body: () throws -> Void) throws -> [SaveConflict] {
        do {
            try body()
            return []
        } catch StoreError.optimisticLockingFailure(let conflicts) {
            return conflicts
        }
    }

    private func price(_ value: Double) -> FetchedValue { .attribute(RowCodec.normalize(.double(value), .float)) }

    // MARK: - Each read path

    @Test func anObjectKeptFromAFetchConflicts() throws {
        let (context, path) = try seeded()
        let one = try #require(try context.fetch(FetchRequest(entityName: "Book", format: "title == 'One'")).first)
        try otherSaves(path, "Book", 1, "price", .double(99))
        try one.set("title", "Uno")
        let found = try conflicts { try context.save() }
        // The object still holds what was read: the price someone else changed differs too.
        #expect(found == [SaveConflict(objectID: one.objectID, expectedVersion: 1, storedVersion: 2, differences: [
            .init(key: "title", yours: .attribute(.string("Uno")), stored: .attribute(.string("One"))),
            .init(key: "price", yours: price(10), stored: price(99)),
        ])])
        #expect(try rows(path, "SELECT ZTITLE, ZPRICE, Z_OPT FROM ZBOOK WHERE Z_PK = 1") == [["One", "99.0", "2"]])
    }

    /// The REPL's case: `fetch` streams objects through `enumerate`, which lets go of them;
    /// `set Book/p1` makes the object again from its row, now at the other writer's version.
    @Test func anObjectLetGoOfByEnumerateAndReadAgainConflicts() throws {
        let (context, path) = try seeded()
        var titles: [String] = []
        try context.enumerate(FetchRequest(entityName: "Book")) { titles.append(try $0.get("title") ?? "") }
        #expect(titles == ["One", "Two", "Three"])
        #expect(context.registeredObjects.isEmpty)
        try otherSaves(path, "Book", 1, "price", .double(99))
        let one = try context.existingObject(entity: "Book", primaryKey: 1)
        // The object shows the stored values; the save still expects the version first read.
        #expect(try one.get("price", as: Double.self) == 99)
        try one.set("price", 5.0)
        let found = try conflicts { try context.save() }
        #expect(found == [SaveConflict(objectID: one.objectID, expectedVersion: 1, storedVersion: 2, differences: [
            .init(key: "price", yours: price(5), stored: price(99)),
        ])])
        #expect(found.first?.description == "Book/p1 was changed by someone else since it was read (version 1, now version 2)\n  price: yours 5, stored 99")
        #expect(try rows(path, "SELECT ZPRICE, Z_OPT FROM ZBOOK WHERE Z_PK = 1") == [["99.0", "2"]])
        #expect(one.isUpdated)
    }

    /// The REPL's `fetch` reads stored rows without objects when it can: the versions it
    /// read are kept all the same, so a later change still conflicts.
    @Test func aRowReadWithoutAnObjectConflictsWhenChangedLater() throws {
        let (context, path) = try seeded()
        let title = try context.store.mapping(for: "Book").attributeIndex(of: "title") ?? -1
        var titles: [String] = []
        let streamed = try context.enumerateStoredRows(FetchRequest(entityName: "Book")) { titles.append(try $0.value(at: title)?.stringValue ?? "") }
        #expect(streamed && titles == ["One", "Two", "Three"])
        try otherSaves(path, "Book", 1, "price", .double(99))
        let one = try context.existingObject(entity: "Book", primaryKey: 1)
        try one.set("price", 5.0)
        #expect(try conflicts { try context.save() }.map(\.expectedVersion) == [1])
    }

    /// Stored rows stand in for objects only when they give the same answer: not with an
    /// unsaved change of the entity, nor while the context holds an object of it.
    @Test func storedRowsOnlyWhenNothingUnsavedBearsOnTheFetch() throws {
        let (context, _) = try seeded()
        let request = FetchRequest<ManagedObject>(entityName: "Book")
        var ids: [ObjectID] = []
        #expect(try context.enumerateStoredRows(request) { ids.append($0.objectID) })
        var enumerated: [ObjectID] = []
        try context.enumerate(request) { enumerated.append($0.objectID) }
        #expect(ids == enumerated && ids.count == 3)
        let one = try context.existingObject(entity: "Book", primaryKey: 1)
        #expect(try !context.enumerateStoredRows(request) { _ in Issue.record("a row was read") })
        try one.set("title", "Uno")
        #expect(try !context.enumerateStoredRows(request) { _ in Issue.record("a row was read") })
        try context.save()
        context.reset()
        // Saved and let go of: the rows answer again, with the saved value.
        let title = try context.store.mapping(for: "Book").attributeIndex(of: "title") ?? -1
        var first: String?
        #expect(try context.enumerateStoredRows(FetchRequest(entityName: "Book", format: "price == 10")) { first = try $0.value(at: title)?.stringValue })
        #expect(first == "Uno")
        // A predicate SQL cannot decide whole (a part evaluated in memory) leaves it to objects.
        let partly = try FetchRequest(entityName: "Book", format: "title.length > 2")
        #expect(try !context.enumerateStoredRows(partly) { _ in Issue.record("a row was read") })
    }

    @Test func aFaultFiredBeforeTheOtherSaveConflicts() throws {
        let (context, path) = try seeded()
        let ids = try context.fetchObjectIDs(FetchRequest(entityName: "Book"))
        let one = try context.object(for: ids[0])
        #expect(one.isFault)
        #expect(try one.get("title", as: String.self) == "One")
        try otherSaves(path, "Book", 1, "price", .double(99))
        try one.set("title", "Uno")
        #expect(try conflicts { try context.save() }.map(\.objectID) == [one.objectID])
    }

    @Test func aFaultMadeAfterEnumerateLetGoChecksTheVersionFirstRead() throws {
        let (context, path) = try seeded()
        try context.enumerate(FetchRequest(entityName: "Book")) { _ = try $0.get("title", as: String.self) }
        try otherSaves(path, "Book", 2, "title", .string("Deux"))
        let two = try context.object(for: try context.fetchObjectIDs(FetchRequest(entityName: "Book", format: "price == 15"))[0])
        try two.set("price", 16.0)
        #expect(try conflicts { try context.save() }.map(\.expectedVersion) == [1])
    }

    @Test func anObjectFromExistingObjectConflicts() throws {
        let (context, path) = try seeded()
        let one = try context.existingObject(entity: "Book", primaryKey: 1)
        try otherSaves(path, "Book", 1, "title", .string("Uno"))
        try one.set("price", 11.0)
        let found = try conflicts { try context.save() }
        #expect(found.map(\.differences.count) == [2])
    }

    @Test func objectsReachedThroughRelationshipsConflict() throws {
        let (context, path) = try seeded()
        // A to-many read.
        let fiction = try context.existingObject(entity: "BookCategory", primaryKey: 1)
        let books = try fiction.objects(forKey: "books")
        #expect(try books.map { try $0.get("title", as: String.self) ?? "" } == ["One", "Two", "Three"])
        try otherSaves(path, "Book", 3, "price", .double(1))
        try books[2].set("title", "Drei")
        #expect(try conflicts { try context.save() }.map(\.objectID) == [books[2].objectID])
        context.rollback()
        // A to-one reached after `enumerate` let go of its destination.
        context.reset()
        try context.enumerate(FetchRequest(entityName: "BookCategory")) { _ = try $0.get("name", as: String.self) }
        try otherSaves(path, "BookCategory", 2, "name", .string("Verse"))
        let poetry = try context.existingObject(entity: "BookCategory", primaryKey: 2)
        let two = try context.existingObject(entity: "Book", primaryKey: 2)
        try two.setObject(poetry, forKey: "category")
        let found = try conflicts { try context.save() }
        #expect(found.map(\.objectID.description) == ["BookCategory/p2"])
    }

    @Test func aBatchedFetchAfterEnumerateChecksTheVersionFirstRead() throws {
        let (context, path) = try seeded()
        try context.enumerate(FetchRequest(entityName: "Book")) { _ = try $0.get("title", as: String.self) }
        try otherSaves(path, "Book", 1, "price", .double(99))
        var request = FetchRequest(entityName: "Book")
        request.fetchBatchSize = 2
        let one = try context.fetch(request)[0]
        try one.set("title", "Uno")
        #expect(try conflicts { try context.save() }.map(\.expectedVersion) == [1])
    }

    @Test func deletingARowSomeoneElseChangedConflicts() throws {
        let (context, path) = try seeded()
        let one = try context.existingObject(entity: "Book", primaryKey: 1)
        try otherSaves(path, "Book", 1, "price", .double(99))
        try context.delete(one)
        let found = try conflicts { try context.save() }
        #expect(found.map(\.isDeletion) == [true])
        #expect(found.first?.summary == "Book/p1, which this context deletes, was changed by someone else since it was read (version 1, now version 2)")
        #expect(try rows(path, "SELECT COUNT(*) FROM ZBOOK") == [["3"]])
        #expect(one.isDeleted)
    }

    @Test func aRowSomeoneElseDeletedIsAConflictOfItsOwn() throws {
        let (context, path) = try seeded()
        let one = try context.existingObject(entity: "Book", primaryKey: 1)
        let two = try context.existingObject(entity: "Book", primaryKey: 2)
        try otherDeletes(path, "Book", 1)
        try otherDeletes(path, "Book", 2)
        try one.set("price", 5.0)
        try context.delete(two)
        let found = try conflicts { try context.save() }
        #expect(found.map(\.summary) == [
            "Book/p2, which this context deletes, was deleted by someone else since it was read (version 1)",
            "Book/p1 was deleted by someone else since it was read (version 1)",
        ])
        #expect(found.allSatisfy { $0.rowIsGone })
        // Overwriting cannot bring back the changed row; the delete is already done.
        #expect(try conflicts { try context.save(mergePolicy: .overwrite) }.map(\.objectID) == [one.objectID])
        #expect(try context.reload([one]) == [one.objectID])
        #expect(one.managedObjectContext == nil)
        #expect(try context.save(mergePolicy: .overwrite).map(\.objectID) == [two.objectID])
        #expect(!context.hasChanges)
    }

    // MARK: - All or nothing

    @Test func aConflictWritesNothingAndKeepsEveryChange() throws {
        let (context, path) = try seeded()
        let one = try context.existingObject(entity: "Book", primaryKey: 1)
        let three = try context.existingObject(entity: "Book", primaryKey: 3)
        try otherSaves(path, "Book", 3, "price", .double(1))
        try one.set("title", "Uno")
        try three.set("title", "Drei")
        let added = try context.insert("Book")
        try added.set("title", "Four")
        let before = try rows(path, "SELECT Z_PK, Z_OPT, ZTITLE, ZPRICE FROM ZBOOK ORDER BY Z_PK")
        let found = try conflicts { try context.save() }
        #expect(found.map(\.objectID) == [three.objectID])
        #expect(try rows(path, "SELECT Z_PK, Z_OPT, ZTITLE, ZPRICE FROM ZBOOK ORDER BY Z_PK") == before)
        #expect(try rows(path, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Book'") == [["3"]])
        #expect(Set(context.updatedObjects.map(ObjectIdentifier.init)) == [ObjectIdentifier(one), ObjectIdentifier(three)])
        #expect(context.insertedObjects.map(ObjectIdentifier.init) == [ObjectIdentifier(added)])
        #expect(added.objectID.isTemporary)
        #expect(one.version == 1 && three.version == 1)
        #expect(try one.get("title", as: String.self) == "Uno")
    }

    // MARK: - Resolving

    @Test func reloadTakesTheStoredValuesAndVersion() throws {
        let (context, path) = try seeded()
        try context.enumerate(FetchRequest(entityName: "Book")) { _ = try $0.get("title", as: String.self) }
        try otherSaves(path, "Book", 1, "price", .double(99))
        let one = try context.existingObject(entity: "Book", primaryKey: 1)
        try one.set("price", 5.0)
        let two = try context.existingObject(entity: "Book", primaryKey: 2)
        try two.set("title", "Deux")
        let found = try conflicts { try context.save() }
        #expect(try context.reload(found.map { try context.object(for: $0.objectID) }) == [])
        #expect(!one.isUpdated)
        #expect(one.version == 2)
        #expect(try one.get("price", as: Double.self) == 99)
        #expect(context.updatedObjects.map(\.objectID) == [two.objectID])
        try context.save()
        #expect(try rows(path, "SELECT ZTITLE, ZPRICE, Z_OPT FROM ZBOOK WHERE Z_PK <= 2 ORDER BY Z_PK") == [["One", "99.0", "2"], ["Deux", "15.0", "2"]])
        // A change after the reload saves over the stored version.
        try one.set("price", 6.0)
        try context.save()
        #expect(try rows(path, "SELECT ZPRICE, Z_OPT FROM ZBOOK WHERE Z_PK = 1") == [["6.0", "3"]])
    }

    @Test func reloadBringsBackAnObjectThisContextDeleted() throws {
        let (context, path) = try seeded()
        let one = try context.existingObject(entity: "Book", primaryKey: 1)
        try otherSaves(path, "Book", 1, "price", .double(99))
        try context.delete(one)
        _ = try conflicts { try context.save() }
        try context.reload([one])
        #expect(!one.isDeleted)
        #expect(!context.hasChanges)
        #expect(try one.object(forKey: "category")?.objectID.description == "BookCategory/p1")
        #expect(try one.get("price", as: Double.self) == 99)
        // The delete had taken the book out of its category; the category has it back.
        #expect(try one.object(forKey: "category")?.objects(forKey: "books").contains { $0 === one } == true)
    }

    @Test func reloadPutsTheOtherSideOfARelationshipBack() throws {
        let (context, path) = try seeded()
        let two = try context.existingObject(entity: "Book", primaryKey: 2)
        let fiction = try context.existingObject(entity: "BookCategory", primaryKey: 1)
        let poetry = try context.existingObject(entity: "BookCategory", primaryKey: 2)
        #expect(try fiction.objects(forKey: "books").count == 3)
        #expect(try poetry.objects(forKey: "books").isEmpty)
        try otherSaves(path, "Book", 2, "price", .double(1))
        try two.setObject(poetry, forKey: "category")
        try poetry.set("name", "Verse")
        #expect(Set(context.updatedObjects.map(\.objectID.description)) == ["Book/p2", "BookCategory/p1", "BookCategory/p2"])
        #expect(try conflicts { try context.save() }.map(\.objectID) == [two.objectID])
        try context.reload([two])
        #expect(try two.object(forKey: "category") === fiction)
        #expect(try fiction.objects(forKey: "books").map(\.objectID.description) == ["Book/p1", "Book/p2", "Book/p3"])
        #expect(try poetry.objects(forKey: "books").isEmpty)
        // Fiction is as stored again; Poetry keeps its own change.
        #expect(context.updatedObjects.map(\.objectID.description) == ["BookCategory/p2"])
        try context.save()
        #expect(try rows(path, "SELECT ZNAME, Z_OPT FROM ZBOOKCATEGORY ORDER BY Z_PK") == [["Fiction", "1"], ["Verse", "2"]])
        #expect(try rows(path, "SELECT ZCATEGORY FROM ZBOOK WHERE Z_PK = 2") == [["1"]])
    }

    @Test func overwriteSavesThisContextsVersionOverTheStoredOne() throws {
        let (context, path) = try seeded()
        try context.enumerate(FetchRequest(entityName: "Book")) { _ = try $0.get("title", as: String.self) }
        try otherSaves(path, "Book", 1, "price", .double(99))
        try otherSaves(path, "Book", 1, "price", .double(98))
        try otherSaves(path, "Book", 2, "title", .string("Deux"))
        let one = try context.existingObject(entity: "Book", primaryKey: 1)
        try one.set("price", 5.0)
        let two = try context.existingObject(entity: "Book", primaryKey: 2)
        try context.delete(two)
        let overwritten = try context.save(mergePolicy: .overwrite)
        #expect(overwritten.map(\.summary) == [
            "Book/p2, which this context deletes, was changed by someone else since it was read (version 1, now version 2)",
            "Book/p1 was changed by someone else since it was read (version 1, now version 3)",
        ])
        #expect(context.mergePolicy == .error)
        #expect(try rows(path, "SELECT Z_PK, ZPRICE, Z_OPT FROM ZBOOK ORDER BY Z_PK") == [["1", "5.0", "4"], ["3", "20.0", "1"]])
        #expect(one.version == 4)
        // Versions move on from the overwritten row: the next save is checked against it.
        try one.set("price", 7.0)
        try context.save()
        try otherSaves(path, "Book", 1, "title", .string("Uno"))
        try one.set("price", 8.0)
        #expect(try conflicts { try context.save() }.map(\.expectedVersion) == [5])
        context.mergePolicy = .overwrite
        try context.save()
        #expect(try rows(path, "SELECT ZTITLE, ZPRICE, Z_OPT FROM ZBOOK WHERE Z_PK = 1") == [["One", "8.0", "7"]])
    }

    // MARK: - Memory

    @Test func aReadOnlyContextRecordsNothingAndAWritableOneOnlyVersions() throws {
        let (writable, path) = try seeded()
        try writable.enumerate(FetchRequest(entityName: "Book")) { _ = try $0.get("title", as: String.self) }
        #expect(writable.registeredObjects.isEmpty)
        // Three consecutive keys read at version 1: one run.
        let book = try writable.store.mapping(for: "Book").number
        #expect(writable.seenVersions.storedEntries == 1)
        #expect((1...4).map { writable.seenVersions.version(number: book, key: $0) } == [1, 1, 1, nil])
        // Made again, an object takes its version from the record.
        #expect(try writable.existingObject(entity: "Book", primaryKey: 2).version == 1)
        // Keys out of order (a sorted fetch) are kept one by one.
        let sorted = try open(path)
        try sorted.enumerate(FetchRequest(entityName: "Book", sortKeys: [SortKey("title")])) { _ = try $0.get("title", as: String.self) }
        #expect(sorted.seenVersions.storedEntries == 3)
        #expect((1...3).map { sorted.seenVersions.version(number: book, key: $0) } == [1, 1, 1])
        writable.reset()
        #expect(writable.seenVersions.isEmpty)
        let reader = ManagedObjectContext(store: try PersistentStore(path: path, model: try Fixtures.bookStoreModel()))
        try reader.enumerate(FetchRequest(entityName: "Book")) { _ = try $0.get("title", as: String.self) }
        #expect(reader.registeredObjects.isEmpty)
        #expect(reader.seenVersions.isEmpty)
        // Counting with an in-memory predicate enumerates too.
        let counted = try reader.count(for: FetchRequest(entityName: "Book", format: "title MATCHES 'T.*'"))
        #expect(counted == 2)
        #expect(reader.seenVersions.isEmpty)
    }
}
