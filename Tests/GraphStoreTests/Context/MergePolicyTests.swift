import Foundation
import Testing
@testable import GraphStore

/// Core Data's merge policies, property by property, against a save made meanwhile by a
/// second connection to the same file (as another process or context would).
@Suite struct MergePolicyTests {
    /// A store with two categories and two books (Book/p1 "One" at 10 in Fiction/p1,
    /// Book/p2 "Two" at 15), and a context that has read both books.
    private func seeded() throws -> (ManagedObjectContext, String) {
        let path = try Fixtures.newStorePath()
        let seeding = try open(path, creating: true)
        let fiction = try seeding.insert("BookCategory")
        try fiction.set("name", "Fiction")
        try seeding.insert("BookCategory").set("name", "Poetry")
        for (title, price) in [("One", 10.0), ("Two", 15.0)] {
            let book = try seeding.insert("Book")
            try book.set("title", title)
            try book.set("price", price)
            try book.setObject(fiction, forKey: "category")
        }
        try seeding.save()
        let context = try open(path)
        _ = try context.fetch(FetchRequest(entityName: "Book"))
        return (context, path)
    }

    private func open(_ path: String, creating: Bool = false) throws -> ManagedObjectContext {
        let model = try Fixtures.bookStoreModel()
        return ManagedObjectContext(store: creating ? try PersistentStore.create(at: path, model: model) : try PersistentStore(path: path, model: model, readOnly: false))
    }

    /// Another writer changes book `key` and saves.
    private func otherChanges(_ path: String, _ key: Int64, _ body: (ManagedObjectContext, ManagedObject) throws -> Void) throws {
        let other = try open(path)
        try body(other, try other.existingObject(entity: "Book", primaryKey: key))
        try other.save()
    }

    private func rows(_ path: String, _ sql: String) throws -> [[String]] {
        try Connection(path: path, mode: .readOnly).rows(sql).map { $0.map(\.description) }
    }

    /// The issue's repro: A sets the price, B renames the same book and saves, A saves.
    @Test func objectTrumpKeepsBothChangesToDifferentProperties() throws {
        let (context, path) = try seeded()
        let one = try context.existingObject(entity: "Book", primaryKey: 1)
        try one.set("price", 12.0)
        try otherChanges(path, 1) { _, book in try book.set("title", "Uno") }
        context.mergePolicy = .mergeByPropertyObjectTrump
        try context.save()
        #expect(try rows(path, "SELECT ZTITLE, ZPRICE, Z_OPT FROM ZBOOK WHERE Z_PK = 1") == [["Uno", "12.0", "3"]])
        #expect(try one.get("title", as: String.self) == "Uno")
        #expect(!one.hasChanges && one.version == 3)
        // The next save is checked against the merged version.
        try one.set("price", 13.0)
        let resolved = try context.save(mergePolicy: .error)
        #expect(resolved.isEmpty)
    }

    @Test func objectTrumpKeepsThisContextsChangeOfAPropertyBothChanged() throws {
        let (context, path) = try seeded()
        let one = try context.existingObject(entity: "Book", primaryKey: 1)
        try one.set("price", 12.0)
        try otherChanges(path, 1) { _, book in
            try book.set("price", 99.0)
            try book.set("title", "Uno")
        }
        try context.save(mergePolicy: .mergeByPropertyObjectTrump)
        #expect(try rows(path, "SELECT ZTITLE, ZPRICE FROM ZBOOK WHERE Z_PK = 1") == [["Uno", "12.0"]])
    }

    @Test func storeTrumpTakesTheStoredValueOfAPropertyBothChangedAndKeepsTheRest() throws {
        let (context, path) = try seeded()
        let one = try context.existingObject(entity: "Book", primaryKey: 1)
        try one.set("price", 12.0)
        try one.set("title", "Mine")
        try otherChanges(path, 1) { _, book in try book.set("price", 99.0) }
        try context.save(mergePolicy: .mergeByPropertyStoreTrump)
        #expect(try rows(path, "SELECT ZTITLE, ZPRICE FROM ZBOOK WHERE Z_PK = 1") == [["Mine", "99.0"]])
        #expect(try one.get("price", as: Double.self) == 99)
    }

    @Test func mergesTakeAToOneSomeoneElseChangedAndSettleItsInverse() throws {
        let (context, path) = try seeded()
        let one = try context.existingObject(entity: "Book", primaryKey: 1)
        let fiction = try context.existingObject(entity: "BookCategory", primaryKey: 1)
        #expect(try fiction.objects(forKey: "books").count == 2)
        try one.set("price", 12.0)
        try otherChanges(path, 1) { other, book in try book.setObject(try other.existingObject(entity: "BookCategory", primaryKey: 2), forKey: "category") }
        try context.save(mergePolicy: .mergeByPropertyObjectTrump)
        #expect(try rows(path, "SELECT ZCATEGORY, ZPRICE FROM ZBOOK WHERE Z_PK = 1") == [["2", "12.0"]])
        #expect(try one.object(forKey: "category")?.objectID.primaryKey == 2)
        #expect(try fiction.objects(forKey: "books").map(\.objectID.primaryKey) == [2])
    }

    @Test func rollbackDropsTheConflictingChangesAndSavesTheOthers() throws {
        let (context, path) = try seeded()
        let one = try context.existingObject(entity: "Book", primaryKey: 1)
        let two = try context.existingObject(entity: "Book", primaryKey: 2)
        try one.set("price", 12.0)
        try two.set("price", 16.0)
        let added = try context.insert("Book")
        try added.set("title", "Three")
        try otherChanges(path, 1) { _, book in try book.set("title", "Uno") }
        let resolved = try context.save(mergePolicy: .rollback)
        #expect(resolved.map(\.objectID) == [one.objectID])
        #expect(try rows(path, "SELECT Z_PK, ZTITLE, ifnull(ZPRICE, '-') FROM ZBOOK ORDER BY Z_PK") == [["1", "Uno", "10.0"], ["2", "Two", "16.0"], ["3", "Three", "-"]])
        #expect(try one.get("title", as: String.self) == "Uno" && one.get("price", as: Double.self) == 10)
        #expect(!context.hasChanges)
    }

    @Test func rollbackKeepsARowSomeoneElseChangedThatThisContextDeleted() throws {
        let (context, path) = try seeded()
        let one = try context.existingObject(entity: "Book", primaryKey: 1)
        try context.delete(one)
        try otherChanges(path, 1) { _, book in try book.set("title", "Uno") }
        try context.save(mergePolicy: .rollback)
        #expect(try rows(path, "SELECT Z_PK, ZTITLE FROM ZBOOK ORDER BY Z_PK") == [["1", "Uno"], ["2", "Two"]])
        #expect(!one.isDeleted && one.managedObjectContext === context)
    }

    @Test func mergesMakeADeleteWhateverTheStoredVersion() throws {
        for policy in [MergePolicy.mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump] {
            let (context, path) = try seeded()
            try context.delete(try context.existingObject(entity: "Book", primaryKey: 1))
            try otherChanges(path, 1) { _, book in try book.set("title", "Uno") }
            try context.save(mergePolicy: policy)
            #expect(try rows(path, "SELECT Z_PK FROM ZBOOK") == [["2"]], "\(policy)")
        }
    }

    @Test func aMergedUpdateOfARowSomeoneElseDeletedStaysAConflict() throws {
        let (context, path) = try seeded()
        try context.existingObject(entity: "Book", primaryKey: 1).set("price", 12.0)
        let other = try open(path)
        try other.delete(try other.existingObject(entity: "Book", primaryKey: 1))
        try other.save()
        #expect(throws: StoreError.self) { try context.save(mergePolicy: .mergeByPropertyObjectTrump) }
        #expect(context.hasChanges)
    }

    /// A save that fails after a merge changed an object puts the object back as it was.
    @Test func aFailedSaveUndoesWhatAMergeTookIntoTheObject() throws {
        let (context, path) = try seeded()
        let one = try context.existingObject(entity: "Book", primaryKey: 1)
        try one.set("price", 12.0)
        try otherChanges(path, 1) { _, book in try book.set("title", "Uno") }
        // A second conflict the merge cannot resolve: a row someone else deleted.
        try context.existingObject(entity: "Book", primaryKey: 2).set("price", 1.0)
        let other = try open(path)
        try other.delete(try other.existingObject(entity: "Book", primaryKey: 2))
        try other.save()
        #expect(throws: StoreError.self) { try context.save(mergePolicy: .mergeByPropertyObjectTrump) }
        #expect(try one.get("title", as: String.self) == "One")
        #expect(one.changedKeys() == ["price"] && one.version == 1)
        #expect(try rows(path, "SELECT ZTITLE, ZPRICE FROM ZBOOK WHERE Z_PK = 1") == [["Uno", "10.0"]])
    }

    // MARK: - refresh(_:mergeChanges:) and the merge of another save

    @Test func refreshMergingChangesKeepsThisContextsChangesOverTheStoredValues() throws {
        let (context, path) = try seeded()
        let one = try context.existingObject(entity: "Book", primaryKey: 1)
        try one.set("price", 12.0)
        try otherChanges(path, 1) { _, book in try book.set("title", "Uno") }
        try context.refresh(one, mergeChanges: true)
        #expect(try one.get("title", as: String.self) == "Uno")
        #expect(try one.get("price", as: Double.self) == 12)
        #expect(one.changedKeys() == ["price"])
        try context.save(mergePolicy: .error)
        #expect(try rows(path, "SELECT ZTITLE, ZPRICE FROM ZBOOK WHERE Z_PK = 1") == [["Uno", "12.0"]])
    }

    /// A to-many this context changed takes what the store holds now, with this context's
    /// additions and removals on top (Moody's policy counts on it after `super`).
    @Test func refreshMergingChangesCombinesAToManyBothSidesChanged() throws {
        let (context, path) = try seeded()
        let fiction = try context.existingObject(entity: "BookCategory", primaryKey: 1)
        let mine = try context.insert("Book")
        try mine.set("title", "Mine")
        try fiction.add(mine, toKey: "books")
        try fiction.remove(try context.existingObject(entity: "Book", primaryKey: 2), fromKey: "books")
        let other = try open(path)
        let theirs = try other.insert("Book")
        try theirs.set("title", "Theirs")
        try theirs.setObject(try other.existingObject(entity: "BookCategory", primaryKey: 1), forKey: "category")
        try other.save()
        try context.refresh(fiction, mergeChanges: true)
        #expect(try Set(fiction.objects(forKey: "books").map { try $0.get("title", as: String.self) }) == ["One", "Mine", "Theirs"])
        try context.save()
        #expect(try rows(path, "SELECT ZTITLE, ifnull(ZCATEGORY, '-') FROM ZBOOK ORDER BY Z_PK") == [["One", "1"], ["Two", "-"], ["Theirs", "1"], ["Mine", "1"]])
    }

    @Test func refreshWithoutMergingDropsTheChanges() throws {
        let (context, path) = try seeded()
        let one = try context.existingObject(entity: "Book", primaryKey: 1)
        try one.set("price", 12.0)
        try otherChanges(path, 1) { _, book in try book.set("title", "Uno") }
        try context.refresh(one, mergeChanges: false)
        #expect(try one.get("title", as: String.self) == "Uno" && one.get("price", as: Double.self) == 10)
        #expect(!context.hasChanges)
    }

    /// The automatic merge of another context's save combines with an unsaved edit of
    /// another property, as Core Data's does; an edit of the same property stays a conflict.
    @Test func mergingAnotherSaveCombinesWithUnsavedEditsOfOtherProperties() throws {
        let (context, path) = try seeded()
        let one = try context.existingObject(entity: "Book", primaryKey: 1)
        let two = try context.existingObject(entity: "Book", primaryKey: 2)
        try one.set("price", 12.0)
        try two.set("title", "Mine")
        let other = try open(path)
        try other.existingObject(entity: "Book", primaryKey: 1).set("title", "Uno")
        try other.existingObject(entity: "Book", primaryKey: 2).set("title", "Theirs")
        try other.save()
        try context.mergeChanges([one.objectID, two.objectID])
        #expect(try one.get("title", as: String.self) == "Uno" && one.get("price", as: Double.self) == 12)
        #expect(try two.get("title", as: String.self) == "Mine")
        do {
            try context.save()
            Issue.record("an edit of a property another save changed overwrote it")
        } catch StoreError.optimisticLockingFailure(let conflicts) {
            #expect(conflicts.map(\.objectID) == [two.objectID])
            #expect(conflicts.first?.differences.map(\.key) == ["title"])
        }
        try context.save(mergePolicy: .mergeByPropertyObjectTrump)
        #expect(try rows(path, "SELECT ZTITLE, ZPRICE FROM ZBOOK ORDER BY Z_PK") == [["Uno", "12.0"], ["Mine", "15.0"]])
    }
}
