import Foundation
import Testing
@testable import GraphStore

@Suite struct ContextTests {
    private func newContext(_ model: ManagedObjectModel? = nil) throws -> (ManagedObjectContext, String) {
        let path = try Fixtures.newStorePath()
        let store = try PersistentStore.create(at: path, model: model ?? Fixtures.layoutModel())
        return (ManagedObjectContext(store: store), path)
    }

    private func reopen(_ path: String, _ model: ManagedObjectModel? = nil) throws -> ManagedObjectContext {
        ManagedObjectContext(store: try PersistentStore(path: path, model: model ?? Fixtures.layoutModel(), readOnly: false))
    }

    @Test func primaryKeysComeFromTheRootsZMaxInOneHierarchy() throws {
        let (context, path) = try newContext()
        let book = try context.insert("Book")
        let novel = try context.insert("GraphicNovel")
        let page = try context.insert("Page")
        #expect(book.objectID.isTemporary)
        #expect(book.objectID.uriRepresentation.hasPrefix("x-coredata:///Book/t"))
        try context.save()
        #expect(book.objectID.primaryKey == 1)
        #expect(novel.objectID.primaryKey == 2)
        #expect(page.objectID.primaryKey == 1)
        #expect(book.objectID.uriRepresentation == "x-coredata://\(context.store.uuid)/Book/p1")
        let raw = try Connection(path: path, mode: .readOnly)
        #expect(try raw.rows("SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT").map { $0.map(\.description) } ==
            [["1", "2"], ["2", "0"], ["3", "0"], ["4", "1"], ["5", "0"], ["6", "0"]])
        #expect(try raw.rows("SELECT Z_PK, Z_ENT, Z_OPT FROM ZBOOK ORDER BY Z_PK").map { $0.map(\.description) } == [["1", "1", "1"], ["2", "2", "1"]])
    }

    @Test func updatesBumpZOptAndOnlyChangedObjectsAreWritten() throws {
        let (context, path) = try newContext()
        let a = try context.insert("Page")
        let b = try context.insert("Page")
        try context.save()
        try a.set("number", 7)
        #expect(context.hasChanges)
        #expect(context.updatedObjects.map(\.objectID) == [a.objectID])
        #expect(a.changedKeys() == ["number"])
        try context.save()
        try a.set("number", 8)
        try context.save()
        let raw = try Connection(path: path, mode: .readOnly)
        #expect(try raw.rows("SELECT Z_PK, Z_OPT, ZNUMBER FROM ZPAGE ORDER BY Z_PK").map { $0.map(\.description) } == [["1", "3", "8"], ["2", "1", "NULL"]])
        _ = b
    }

    @Test func fetchedObjectsAreFaultsUntilTouched() throws {
        let (context, path) = try newContext()
        try context.insert("Page").set("number", 3)
        try context.save()
        let fresh = try reopen(path)
        let page = try #require(try fresh.fetch("Page").first)
        #expect(page.isFault)
        #expect(try page.get("number", as: Int.self) == 3)
        #expect(!page.isFault)
        let byKey = try fresh.object(for: page.objectID)
        #expect(byKey === page)
        let other = try reopen(path)
        let fault = try other.existingObject(entity: "Page", primaryKey: 1)
        #expect(try fault.get("number", as: Int.self) == 3)
        #expect(throws: StoreError.self) { _ = try other.existingObject(entity: "Page", primaryKey: 99) }
        #expect(try other.existingObject(uri: page.objectID.uriRepresentation).objectID == page.objectID)
    }

    @Test func rollbackRestoresEverything() throws {
        let (context, _) = try newContext()
        let page = try context.insert("Page")
        try page.set("number", 1)
        try context.save()
        try page.set("number", 2)
        let extra = try context.insert("Page")
        context.rollback()
        #expect(!context.hasChanges)
        #expect(try page.get("number", as: Int.self) == 1)
        #expect(extra.managedObjectContext == nil)
        #expect(try context.fetch("Page").count == 1)
    }

    @Test func subEntitiesAreFetchedWithTheirParent() throws {
        let (context, _) = try newContext()
        try context.insert("Book").set("title", "Plain")
        try context.insert("GraphicNovel").set("title", "Drawn")
        try context.save()
        #expect(try context.fetch("Book").count == 2)
        #expect(try context.fetch("Book", exactEntity: true).count == 1)
        #expect(try context.fetch("GraphicNovel").map { $0.entity.name } == ["GraphicNovel"])
        #expect(throws: StoreError.abstractEntity("Shape")) {
            let model = try ManagedObjectModel(entities: [EntityDescription("Shape", abstract: true)])
            _ = try ManagedObjectContext(store: PersistentStore.create(at: try Fixtures.newStorePath(), model: model)).insert("Shape")
        }
    }

    @Test func toOneWithSubEntityDestinationStoresTheEntityColumn() throws {
        let (context, path) = try newContext()
        let novel = try context.insert("GraphicNovel")
        let writer = try context.insert("Writer")
        try writer.setObject(novel, forKey: "favourite")
        #expect(try novel.objects(forKey: "fans").map(\.objectID) == [writer.objectID])
        try context.save()
        let raw = try Connection(path: path, mode: .readOnly)
        #expect(try raw.rows("SELECT ZFAVOURITE, Z1_FAVOURITE FROM ZWRITER").first == [.integer(1), .integer(2)])
        let fresh = try reopen(path)
        let loaded = try #require(try fresh.fetch("Writer").first)
        #expect(try loaded.object(forKey: "favourite")?.entity.name == "GraphicNovel")
    }

    @Test func manyToManyPersistsThroughTheJoinTable() throws {
        let (context, path) = try newContext()
        let a1 = try context.insert("Author")
        let a2 = try context.insert("Author")
        let b1 = try context.insert("Book")
        let b2 = try context.insert("Book")
        try a1.add(b1, toKey: "books")
        try a1.add(b2, toKey: "books")
        try b2.add(a2, toKey: "authors")
        #expect(try b2.objects(forKey: "authors").count == 2)
        try context.save()
        let raw = try Connection(path: path, mode: .readOnly)
        #expect(try raw.scalar("SELECT COUNT(*) FROM Z_1AUTHORS") == .integer(3))
        let fresh = try reopen(path)
        let book2 = try fresh.existingObject(entity: "Book", primaryKey: b2.objectID.primaryKey ?? 0)
        #expect(Set(try book2.objects(forKey: "authors").map { $0.objectID.primaryKey }) == [a1.objectID.primaryKey, a2.objectID.primaryKey])
        try book2.remove(try fresh.existingObject(entity: "Author", primaryKey: a1.objectID.primaryKey ?? 0), fromKey: "authors")
        try fresh.save()
        #expect(try raw.scalar("SELECT COUNT(*) FROM Z_1AUTHORS") == .integer(2))
    }

    @Test func orderedToManyKeepsItsOrderAcrossSaves() throws {
        let (context, path) = try newContext()
        let book = try context.insert("Book")
        let pages = try (0..<4).map { i -> ManagedObject in
            let page = try context.insert("Page")
            try page.set("number", i)
            return page
        }
        for page in pages { try book.add(page, toKey: "pages") }
        try context.save()
        try book.insert(pages[3], at: 0, forKey: "pages")
        try context.save()
        let fresh = try reopen(path)
        let loaded = try fresh.existingObject(entity: "Book", primaryKey: 1)
        #expect(try loaded.objects(forKey: "pages").map { try $0.get("number", as: Int.self) } == [3, 0, 1, 2])
    }

    @Test func settingAToOneMovesTheObjectBetweenInverseSets() throws {
        let (context, _) = try newContext(try Fixtures.bookStoreModel())
        let fiction = try context.insert("BookCategory")
        let poetry = try context.insert("BookCategory")
        let book = try context.insert("Book")
        try book.setObject(fiction, forKey: "category")
        try book.setObject(poetry, forKey: "category")
        #expect(try fiction.objects(forKey: "books").isEmpty)
        #expect(try poetry.objects(forKey: "books").map(\.objectID) == [book.objectID])
        try fiction.add(book, toKey: "books")
        #expect(try book.object(forKey: "category") === fiction)
        #expect(try poetry.objects(forKey: "books").isEmpty)
        #expect(throws: RelationshipError.self) { try book.setObject(book, forKey: "category") }
        #expect(throws: RelationshipError.self) { try book.add(fiction, toKey: "category") }
    }

    @Test func deleteCascadesAndNullifies() throws {
        let (context, path) = try newContext(try Fixtures.bookStoreModel())
        let fiction = try context.insert("BookCategory")
        let book = try context.insert("Book")
        try book.setObject(fiction, forKey: "category")
        let page = try context.insert("Page")
        try book.add(page, toKey: "pages")
        try context.save()
        try context.delete(book)   // pages cascade; category.books nullified
        #expect(page.isDeleted)
        #expect(try fiction.objects(forKey: "books").isEmpty)
        try context.save()
        let raw = try Connection(path: path, mode: .readOnly)
        #expect(try raw.scalar("SELECT COUNT(*) FROM ZBOOK") == .integer(0))
        #expect(try raw.scalar("SELECT COUNT(*) FROM ZPAGE") == .integer(0))
        #expect(try raw.scalar("SELECT COUNT(*) FROM ZBOOKCATEGORY") == .integer(1))
    }

    @Test func aRowChangedUnderneathFailsTheSaveAndChangesNothing() throws {
        let (context, path) = try newContext()
        let page = try context.insert("Page")
        try context.save()
        let other = try reopen(path)
        try other.existingObject(entity: "Page", primaryKey: 1).set("number", 5)
        try other.save()
        try page.set("number", 6)
        let conflict = SaveConflict(
            objectID: page.objectID, expectedVersion: 1, storedVersion: 2,
            differences: [.init(key: "number", yours: .attribute(.integer(6)), stored: .attribute(.integer(5)))])
        #expect(throws: StoreError.optimisticLockingFailure([conflict])) { try context.save() }
        #expect(context.hasChanges)
        let raw = try Connection(path: path, mode: .readOnly)
        #expect(try raw.scalar("SELECT ZNUMBER FROM ZPAGE") == .integer(5))
    }

    @Test func readOnlyStoresRefuseToSave() throws {
        let (context, path) = try newContext()
        try context.save()
        let reader = ManagedObjectContext(store: try PersistentStore(path: path, model: try Fixtures.layoutModel()))
        try reader.insert("Page")
        #expect(throws: StoreError.readOnly(path: path)) { try reader.save() }
    }
}
