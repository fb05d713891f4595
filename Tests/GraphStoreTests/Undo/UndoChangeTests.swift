import Foundation
import Testing
@testable import GraphStore

/// Every kind of change registers its undo, and undo/redo restore exactly.
@Suite struct UndoChangeTests {
    @Test func noManagerMeansNoObserver() throws {
        let path = try Fixtures.newStorePath()
        let context = ManagedObjectContext(store: try PersistentStore.create(at: path, model: Fixtures.bookStoreModel()))
        #expect(context.changeObservers.isEmpty)
        let undo = ContextUndoManager()
        context.undoManager = undo
        #expect(context.changeObservers.count == 1)
        context.undoManager = nil
        #expect(context.changeObservers.isEmpty)
        #expect(undo.context == nil)
    }

    @Test func attributeChangeUndoesAndRedoes() throws {
        let (context, undo, _) = try UndoFixtures.bookStore()
        let book = try context.insert("Book")
        try book.set("title", "Dune")
        undo.endEvent()
        try book.set("title", "Dune Messiah")
        try book.set("price", 12.5)
        undo.endEvent()
        #expect(undo.undoGroupCount == 2)
        try undo.undo()
        #expect(try book.get("title", as: String.self) == "Dune")
        #expect(try book.value(forKey: "price") == nil)
        try undo.redo()
        #expect(try book.get("title", as: String.self) == "Dune Messiah")
        #expect(try book.get("price", as: Double.self) == 12.5)
    }

    @Test func insertUndoRemovesTheObjectAndRedoBringsItBack() throws {
        let (context, undo, _) = try UndoFixtures.bookStore()
        let book = try context.insert("Book")
        try book.set("title", "Dune")
        undo.endEvent()
        try undo.undo()
        #expect(context.insertedObjects.isEmpty)
        #expect(!context.hasChanges)
        #expect(book.managedObjectContext == nil)
        #expect(try context.fetch("Book").isEmpty)
        try undo.redo()
        #expect(context.insertedObjects.map(\.objectID) == [book.objectID])
        #expect(book.managedObjectContext === context)
        #expect(try book.get("title", as: String.self) == "Dune")
    }

    @Test func relationshipChangesUndoBothSides() throws {
        let (context, undo, _) = try UndoFixtures.bookStore()
        let fiction = try context.insert("BookCategory")
        let biography = try context.insert("BookCategory")
        let book = try context.insert("Book")
        try book.setObject(fiction, forKey: "category")
        undo.endEvent()
        try book.setObject(biography, forKey: "category")
        undo.endEvent()
        #expect(try fiction.objects(forKey: "books").isEmpty)
        try undo.undo()
        #expect(try book.object(forKey: "category") === fiction)
        #expect(try fiction.objects(forKey: "books").map(ObjectRef.init) == [ObjectRef(book)])
        #expect(try biography.objects(forKey: "books").isEmpty)
        try undo.redo()
        #expect(try book.object(forKey: "category") === biography)
        #expect(try fiction.objects(forKey: "books").isEmpty)
        #expect(try biography.objects(forKey: "books").map(ObjectRef.init) == [ObjectRef(book)])
    }

    @Test func orderedRelationshipKeepsItsOrderThroughUndo() throws {
        let (context, undo, _) = try UndoFixtures.bookStore()
        let book = try context.insert("Book")
        let pages = try (0..<5).map { i -> ManagedObject in
            let page = try context.insert("Page")
            try page.set("text", "page \(i)")
            try book.add(page, toKey: "pages")
            return page
        }
        undo.endEvent()
        // Move the last page to the front, remove the second, then undo both.
        try book.insert(pages[4], at: 0, forKey: "pages")
        undo.endEvent()
        try book.remove(pages[1], fromKey: "pages")
        undo.endEvent()
        #expect(try book.objects(forKey: "pages").map(ObjectRef.init) == [4, 0, 2, 3].map { ObjectRef(pages[$0]) })
        #expect(try pages[1].object(forKey: "book") == nil)
        try undo.undo()
        #expect(try book.objects(forKey: "pages").map(ObjectRef.init) == [4, 0, 1, 2, 3].map { ObjectRef(pages[$0]) })
        #expect(try pages[1].object(forKey: "book") === book)
        try undo.undo()
        #expect(try book.objects(forKey: "pages").map(ObjectRef.init) == pages.map(ObjectRef.init))
        try undo.redo()
        try undo.redo()
        #expect(try book.objects(forKey: "pages").map(ObjectRef.init) == [4, 0, 2, 3].map { ObjectRef(pages[$0]) })
    }

    @Test func deletedObjectComesBackWithItsRelationshipsAndCascade() throws {
        let (context, undo, path) = try UndoFixtures.bookStore()
        let fiction = try context.insert("BookCategory")
        let book = try context.insert("Book")
        try book.setObject(fiction, forKey: "category")
        let pages = try (0..<3).map { _ in try context.insert("Page") }
        for page in pages { try book.add(page, toKey: "pages") }
        try context.save()
        undo.endEvent()
        let groupsBefore = undo.undoGroupCount
        // Delete the book: nullify on category, cascade to its pages.
        try context.delete(book)
        undo.endEvent()
        #expect(undo.undoGroupCount == groupsBefore + 1)
        #expect(try fiction.objects(forKey: "books").isEmpty)
        #expect(pages.allSatisfy { $0.isDeleted })
        try undo.undo()
        #expect(!book.isDeleted)
        #expect(pages.allSatisfy { !$0.isDeleted })
        #expect(try fiction.objects(forKey: "books").map(ObjectRef.init) == [ObjectRef(book)])
        #expect(try book.objects(forKey: "pages").map(ObjectRef.init) == pages.map(ObjectRef.init))
        #expect(try pages.allSatisfy { try $0.object(forKey: "book") === book })
        #expect(context.deletedObjects.isEmpty)
        try context.save()
        #expect(try UndoFixtures.rows(path, "SELECT COUNT(*) FROM ZPAGE") == [["3"]])
        try undo.redo()
        try context.save()
        #expect(try UndoFixtures.rows(path, "SELECT COUNT(*) FROM ZBOOK") == [["0"]])
        #expect(try UndoFixtures.rows(path, "SELECT COUNT(*) FROM ZPAGE") == [["0"]])
    }

    @Test func deleteOfAnInsertedObjectUndoesInsideOneGroup() throws {
        let (context, undo, _) = try UndoFixtures.bookStore()
        let fiction = try context.insert("BookCategory")
        undo.endEvent()
        let book = try context.insert("Book")
        try book.setObject(fiction, forKey: "category")
        try context.delete(book)
        undo.endEvent()
        #expect(context.insertedObjects.map(ObjectRef.init) == [ObjectRef(fiction)])
        try undo.undo()
        #expect(context.insertedObjects.map(ObjectRef.init) == [ObjectRef(fiction)])
        #expect(try fiction.objects(forKey: "books").isEmpty)
        try undo.redo()
        #expect(context.insertedObjects.map(ObjectRef.init) == [ObjectRef(fiction)])
        try undo.undo()
        try undo.undo()
        #expect(context.insertedObjects.isEmpty)
        try undo.redo()
        try undo.redo()
        #expect(context.insertedObjects.map(ObjectRef.init) == [ObjectRef(fiction)])
        #expect(book.managedObjectContext == nil)
    }

    @Test func undoRegistersTheRedoInsteadOfAnUndo() throws {
        let (context, undo, _) = try UndoFixtures.bookStore()
        let book = try context.insert("Book")
        try book.set("title", "A")
        undo.endEvent()
        try book.set("title", "B")
        undo.endEvent()
        try undo.undo()
        #expect(undo.undoGroupCount == 1)
        #expect(undo.redoGroupCount == 1)
        #expect(undo.openChangeCount == 0)
        #expect(!undo.isUndoing)
        // A new change makes the undone group unreachable.
        try book.set("title", "C")
        #expect(!undo.canRedo)
        undo.endEvent()
        #expect(undo.undoGroupCount == 2)
    }

    @Test func aRecordIsSmallAndOneAttributeChangeIsOneRecord() throws {
        // The record is an enum of the object, the slot and the old value: no copies.
        #expect(MemoryLayout<UndoRecord>.stride <= 48)
        let (context, undo, _) = try UndoFixtures.bookStore()
        let category = try context.insert("BookCategory")
        for _ in 0..<100 { try category.add(try context.insert("Book"), toKey: "books") }
        undo.endEvent()
        try category.set("name", "Fiction")
        #expect(undo.openChangeCount == 1)
        try category.remove(try category.objects(forKey: "books")[50], fromKey: "books")
        // One record per side: the book's to-one and the category's removed member.
        #expect(undo.openChangeCount == 3)
    }
}
