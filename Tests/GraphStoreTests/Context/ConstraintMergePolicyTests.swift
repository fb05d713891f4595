import Foundation
import Testing
@testable import GraphStore

/// What each built-in merge policy does to a uniqueness-constraint conflict, on real
/// stores: between an inserted object and a stored row, between two objects inserted in one
/// context, between a changed stored object and another row, across sub-entities of the
/// constraint's entity, and on a constraint over two properties.
@Suite struct ConstraintMergePolicyTests {
    /// Publishers unique by code, with books and an owner; items of two sub-entities unique
    /// by code, with tags; listings unique by shop and SKU together.
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Publisher") {
                AttributeDescription("code", .string)
                AttributeDescription("name", .string)
                AttributeDescription("city", .string)
                RelationshipDescription("books", to: "Book", inverse: "publisher", toMany: true)
                RelationshipDescription("owner", to: "Owner", inverse: "publishers")
                Unique("code")
            }
            EntityDescription("Book") {
                AttributeDescription("title", .string)
                RelationshipDescription("publisher", to: "Publisher", inverse: "books")
            }
            EntityDescription("Review") {
                AttributeDescription("text", .string)
                RelationshipDescription("publisher", to: "Publisher")   // no inverse
            }
            EntityDescription("Owner") {
                AttributeDescription("name", .string)
                RelationshipDescription("publishers", to: "Publisher", inverse: "owner", toMany: true)
            }
            EntityDescription("Item", abstract: true) {
                AttributeDescription("code", .string)
                AttributeDescription("label", .string)
                RelationshipDescription("tags", to: "Tag", inverse: "item", toMany: true)
                Unique("code")
            }
            EntityDescription("Tool", parent: "Item") { AttributeDescription("weight", .double) }
            EntityDescription("Part", parent: "Item") { AttributeDescription("size", .integer32) }
            EntityDescription("Tag") {
                AttributeDescription("name", .string)
                RelationshipDescription("item", to: "Item", inverse: "tags")
            }
            EntityDescription("Listing") {
                AttributeDescription("shop", .string)
                AttributeDescription("sku", .string)
                AttributeDescription("price", .double)
                Unique("shop", "sku")
            }
        }
    }

    /// A store holding Publisher/p1 (code P, Penguin, London, owned by Owner/p1, with
    /// Book/p1 "Stored"), and a second context on it.
    static func storedPublisher() throws -> (context: ManagedObjectContext, path: String) {
        let path = try Fixtures.newStorePath()
        let seeding = ManagedObjectContext(store: try PersistentStore.create(at: path, model: try model()))
        let publisher = try seeding.insert("Publisher")
        try publisher.set("code", "P")
        try publisher.set("name", "Penguin")
        try publisher.set("city", "London")
        let owner = try seeding.insert("Owner")
        try owner.set("name", "Allen")
        try publisher.setObject(owner, forKey: "owner")
        let book = try seeding.insert("Book")
        try book.set("title", "Stored")
        try book.setObject(publisher, forKey: "publisher")
        try seeding.save()
        return (try reopen(path), path)
    }

    static func reopen(_ path: String) throws -> ManagedObjectContext {
        ManagedObjectContext(store: try PersistentStore(path: path, model: try model(), readOnly: false))
    }

    /// An inserted publisher with code P, named Pelican, with a new book "Inserted".
    static func insertDuplicate(_ context: ManagedObjectContext) throws -> (publisher: ManagedObject, book: ManagedObject) {
        let publisher = try context.insert("Publisher")
        try publisher.set("code", "P")
        try publisher.set("name", "Pelican")
        let book = try context.insert("Book")
        try book.set("title", "Inserted")
        try book.setObject(publisher, forKey: "publisher")
        return (publisher, book)
    }

    /// The store's files, but for the shared-memory index (which readers write to).
    private func storeFiles(_ path: String) -> [String: Data] {
        Fixtures.fingerprint(path).filter { $0.key != "-shm" }
    }

    private func rows(_ path: String, _ sql: String) throws -> [[String]] {
        try Connection(path: path, mode: .readOnly).rows(sql).map { $0.map(\.description) }
    }

    // MARK: - An inserted object and a stored row

    @Test func errorRefusesTheSaveWith133021AndChangesNothing() throws {
        let (context, path) = try Self.storedPublisher()
        let (publisher, book) = try Self.insertDuplicate(context)
        let before = storeFiles(path)
        do {
            try context.save()
            Issue.record("a duplicate code was saved under the error policy")
        } catch let failure as ConstraintConflictError {
            #expect(failure.description == "Publisher/t1: code \"P\" is not unique: Publisher/p1 has the same value (uniqueness constraint on code)")
        }
        #expect(storeFiles(path) == before)
        #expect(publisher.isInserted && book.isInserted && publisher.objectID.isTemporary)
        #expect(try book.object(forKey: "publisher") === publisher)
    }

    @Test func objectTrumpCollapsesIntoTheStoredRowWhichTakesEveryValueOfTheInsert() throws {
        let (context, path) = try Self.storedPublisher()
        let (publisher, book) = try Self.insertDuplicate(context)
        try context.save(mergePolicy: .mergeByPropertyObjectTrump)
        // One row, the stored one; the insert's values over it, its nils included.
        #expect(try rows(path, "SELECT Z_PK, ZCODE, ZNAME, ifnull(ZCITY, '-'), ifnull(ZOWNER, '-') FROM ZPUBLISHER") == [["1", "P", "Pelican", "-", "-"]])
        #expect(try rows(path, "SELECT ZTITLE, ZPUBLISHER FROM ZBOOK ORDER BY Z_PK") == [["Stored", "1"], ["Inserted", "1"]])
        // The insert is gone; its book belongs to the stored publisher, which keeps its ID.
        #expect(publisher.managedObjectContext == nil)
        let survivor = try #require(try book.object(forKey: "publisher"))
        #expect(survivor.objectID.description == "Publisher/p1")
        #expect(Set(try survivor.objects(forKey: "books").map(\.objectID.description)) == ["Book/p1", "Book/p2"])
        #expect(!context.hasChanges)
    }

    @Test func anObjectPointingAtTheOneThatGoesWithoutAnInverseIsRepointed() throws {
        let (context, path) = try Self.storedPublisher()
        let (publisher, _) = try Self.insertDuplicate(context)
        let review = try context.insert("Review")
        try review.set("text", "fine")
        try review.setObject(publisher, forKey: "publisher")
        try context.save(mergePolicy: .mergeByPropertyStoreTrump)
        #expect(try review.object(forKey: "publisher")?.objectID.description == "Publisher/p1")
        #expect(try rows(path, "SELECT ZTEXT, ZPUBLISHER FROM ZREVIEW") == [["fine", "1"]])
    }

    @Test func overwriteIsObjectTrumpForAnInsert() throws {
        let (context, path) = try Self.storedPublisher()
        _ = try Self.insertDuplicate(context)
        try context.save(mergePolicy: .overwrite)
        #expect(try rows(path, "SELECT Z_PK, ZNAME, ifnull(ZCITY, '-'), ifnull(ZOWNER, '-') FROM ZPUBLISHER") == [["1", "Pelican", "-", "-"]])
        #expect(try rows(path, "SELECT ZPUBLISHER FROM ZBOOK") == [["1"], ["1"]])
    }

    @Test func storeTrumpAndRollbackKeepTheStoredValuesAndTakeTheMembers() throws {
        for policy in [MergePolicy.mergeByPropertyStoreTrump, .rollback] {
            let (context, path) = try Self.storedPublisher()
            let (publisher, book) = try Self.insertDuplicate(context)
            try context.save(mergePolicy: policy)
            #expect(try rows(path, "SELECT Z_PK, ZNAME, ZCITY, ZOWNER FROM ZPUBLISHER") == [["1", "Penguin", "London", "1"]], "\(policy)")
            #expect(try rows(path, "SELECT ZTITLE, ZPUBLISHER FROM ZBOOK ORDER BY Z_PK") == [["Stored", "1"], ["Inserted", "1"]], "\(policy)")
            #expect(publisher.managedObjectContext == nil, "\(policy)")
            #expect(try book.object(forKey: "publisher")?.get("name", as: String.self) == "Penguin", "\(policy)")
        }
    }

    // MARK: - A changed stored object and another row

    /// Publisher/p2 (code Q, Puffin, with Book/p2 "Second") changes its code to P.
    private func changedIntoDuplicate() throws -> (context: ManagedObjectContext, path: String, changed: ManagedObject) {
        let (context, path) = try Self.storedPublisher()
        let other = try context.insert("Publisher")
        try other.set("code", "Q")
        try other.set("name", "Puffin")
        let book = try context.insert("Book")
        try book.set("title", "Second")
        try book.setObject(other, forKey: "publisher")
        try context.save()
        try other.set("code", "P")
        try other.set("name", "Puffin Two")
        return (context, path, other)
    }

    @Test func objectTrumpFoldsAChangedObjectIntoTheRowItDuplicatesTakingItsChanges() throws {
        let (context, path, changed) = try changedIntoDuplicate()
        try context.save(mergePolicy: .mergeByPropertyObjectTrump)
        // Its changes (code, name) go over Publisher/p1, whose other values stay; its row goes.
        #expect(try rows(path, "SELECT Z_PK, ZCODE, ZNAME, ZCITY, ZOWNER FROM ZPUBLISHER") == [["1", "P", "Puffin Two", "London", "1"]])
        #expect(try rows(path, "SELECT ZTITLE, ZPUBLISHER FROM ZBOOK ORDER BY Z_PK") == [["Stored", "1"], ["Second", "1"]])
        #expect(changed.managedObjectContext == nil)
    }

    @Test func overwriteAndStoreTrumpFoldAChangedObjectTakingAllOrNothing() throws {
        for (policy, expected) in [(MergePolicy.overwrite, ["1", "P", "Puffin Two", "-", "-"]), (.mergeByPropertyStoreTrump, ["1", "P", "Penguin", "London", "1"])] {
            let (context, path, changed) = try changedIntoDuplicate()
            try context.save(mergePolicy: policy)
            #expect(try rows(path, "SELECT Z_PK, ZCODE, ZNAME, ifnull(ZCITY, '-'), ifnull(ZOWNER, '-') FROM ZPUBLISHER") == [expected], "\(policy)")
            #expect(try rows(path, "SELECT ZPUBLISHER FROM ZBOOK") == [["1"], ["1"]], "\(policy)")
            #expect(changed.managedObjectContext == nil, "\(policy)")
        }
    }

    @Test func rollbackDropsTheChangeThatMadeADuplicate() throws {
        let (context, path, changed) = try changedIntoDuplicate()
        try context.save(mergePolicy: .rollback)
        #expect(try rows(path, "SELECT Z_PK, ZCODE, ZNAME FROM ZPUBLISHER ORDER BY Z_PK") == [["1", "P", "Penguin"], ["2", "Q", "Puffin"]])
        #expect(try changed.get("code", as: String.self) == "Q")
        #expect(!changed.hasChanges && changed.managedObjectContext === context)
    }

    // MARK: - Two objects inserted in one context

    /// Two new publishers with code N: "First" (with book "A") then "Second" in Paris
    /// (with book "B").
    private func twoInserted() throws -> (context: ManagedObjectContext, path: String, first: ManagedObject, second: ManagedObject) {
        let path = try Fixtures.newStorePath()
        let context = ManagedObjectContext(store: try PersistentStore.create(at: path, model: try Self.model()))
        var made: [ManagedObject] = []
        for (name, city, title) in [("First", nil, "A"), ("Second", "Paris", "B")] as [(String, String?, String)] {
            let publisher = try context.insert("Publisher")
            try publisher.set("code", "N")
            try publisher.set("name", name)
            try publisher.set("city", city)
            let book = try context.insert("Book")
            try book.set("title", title)
            try book.setObject(publisher, forKey: "publisher")
            made.append(publisher)
        }
        return (context, path, made[0], made[1])
    }

    @Test func twoInsertsCollapseIntoTheFirstWithTheLastValuesUnderObjectTrumpAndOverwrite() throws {
        for policy in [MergePolicy.mergeByPropertyObjectTrump, .overwrite] {
            let (context, path, first, second) = try twoInserted()
            try context.save(mergePolicy: policy)
            #expect(try rows(path, "SELECT Z_PK, ZNAME, ZCITY FROM ZPUBLISHER") == [["1", "Second", "Paris"]], "\(policy)")
            #expect(try rows(path, "SELECT ZTITLE, ZPUBLISHER FROM ZBOOK ORDER BY ZTITLE") == [["A", "1"], ["B", "1"]], "\(policy)")
            // The first insert survives and gets its permanent ID at the save.
            #expect(first.objectID.description == "Publisher/p1" && second.managedObjectContext == nil, "\(policy)")
        }
    }

    @Test func twoInsertsCollapseIntoTheFirstWithItsValuesUnderStoreTrumpAndRollback() throws {
        for policy in [MergePolicy.mergeByPropertyStoreTrump, .rollback] {
            let (context, path, first, _) = try twoInserted()
            try context.save(mergePolicy: policy)
            #expect(try rows(path, "SELECT Z_PK, ZNAME, ifnull(ZCITY, '-') FROM ZPUBLISHER") == [["1", "First", "-"]], "\(policy)")
            #expect(try rows(path, "SELECT ZPUBLISHER FROM ZBOOK") == [["1"], ["1"]], "\(policy)")
            #expect(Set(try first.objects(forKey: "books").map { try $0.get("title", as: String.self) }) == ["A", "B"], "\(policy)")
        }
    }

    @Test func twoInsertsUnderTheErrorPolicyAre133021NamingEachOther() throws {
        let (context, path, first, second) = try twoInserted()
        let before = storeFiles(path)
        #expect(throws: ConstraintConflictError.self) { try context.save() }
        #expect(storeFiles(path) == before)
        #expect(first.isInserted && second.isInserted)
    }

    // MARK: - Sub-entities and a compound constraint

    @Test func objectsOfTwoSubEntitiesCollapseIntoTheStoredOne() throws {
        let path = try Fixtures.newStorePath()
        let seeding = ManagedObjectContext(store: try PersistentStore.create(at: path, model: try Self.model()))
        let tool = try seeding.insert("Tool")
        try tool.set("code", "X1")
        try tool.set("weight", 2.5)
        try seeding.save()
        let context = try Self.reopen(path)
        let part = try context.insert("Part")
        try part.set("code", "X1")
        try part.set("label", "bolt")
        try part.set("size", Int32(8))
        let tag = try context.insert("Tag")
        try tag.set("name", "metal")
        try tag.setObject(part, forKey: "item")
        try context.save(mergePolicy: .mergeByPropertyObjectTrump)
        // The stored Tool survives, takes the label the two share the attribute of, not the
        // Part's own size, and gets the tag.
        #expect(try rows(path, "SELECT Z_PK, Z_ENT, ZCODE, ZLABEL, ZWEIGHT, ifnull(ZSIZE, '-') FROM ZITEM") == [["1", "\(tool.mapping.number)", "X1", "bolt", "2.5", "-"]])
        #expect(try tag.object(forKey: "item")?.objectID.description == "Tool/p1")
        #expect(try rows(path, "SELECT ZITEM FROM ZTAG") == [["1"]])
    }

    @Test func aCompoundConstraintConflictsOnlyWhenEveryValueIsShared() throws {
        let path = try Fixtures.newStorePath()
        let context = ManagedObjectContext(store: try PersistentStore.create(at: path, model: try Self.model()))
        for (shop, sku, price) in [("A", "1", 1.0), ("A", "2", 2.0), ("B", "1", 3.0)] {
            let listing = try context.insert("Listing")
            try listing.set("shop", shop)
            try listing.set("sku", sku)
            try listing.set("price", price)
        }
        try context.save()
        let duplicate = try context.insert("Listing")
        try duplicate.set("shop", "A")
        try duplicate.set("sku", "1")
        try duplicate.set("price", 9.0)
        let recorder = RecordingPolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
        try context.save(mergePolicy: recorder)
        #expect(try rows(path, "SELECT ZSHOP, ZSKU, ZPRICE FROM ZLISTING ORDER BY Z_PK") == [["A", "1", "9.0"], ["A", "2", "2.0"], ["B", "1", "3.0"]])
        let conflict = try #require(recorder.constraintConflicts.first)
        #expect(conflict.constraint == ["shop", "sku"])
        #expect(conflict.constraintValues == ["shop": .string("A"), "sku": .string("1")])
        #expect(conflict.description == "shop \"A\", sku \"1\": Listing/t4, Listing/p1 (stored)")
    }
}

/// A policy that keeps what it is handed, then does what its type does.
final class RecordingPolicy: MergePolicy {
    private(set) var optimisticConflicts: [MergeConflict] = []
    private(set) var constraintConflicts: [ConstraintConflict] = []
    private(set) var calls: [String] = []

    override func resolve(mergeConflicts list: [Any]) throws {
        calls.append("mergeConflicts(\(list.count))")
        try super.resolve(mergeConflicts: list)
    }

    override func resolve(optimisticLockingConflicts list: [MergeConflict]) throws {
        optimisticConflicts += list
        calls.append("optimisticLocking(\(list.count))")
        try super.resolve(optimisticLockingConflicts: list)
    }

    override func resolve(constraintConflicts list: [ConstraintConflict]) throws {
        constraintConflicts += list
        calls.append("constraint(\(list.count))")
        try super.resolve(constraintConflicts: list)
    }
}
