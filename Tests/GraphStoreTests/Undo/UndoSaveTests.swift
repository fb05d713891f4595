import Foundation
import Testing
@testable import GraphStore

/// Undo across saves: undone changes make the context dirty again, and the next save
/// stores them.
@Suite struct UndoSaveTests {
    @Test func undoAfterSaveRestoresAnAttributeInTheStore() throws {
        let (context, undo, path) = try UndoFixtures.seededBookStore()
        let book = try context.existingObject(entity: "Book", primaryKey: 1)
        try book.set("price", 99.0)
        undo.endEvent()
        try context.save()
        #expect(!context.hasChanges)
        try undo.undo()
        #expect(context.hasChanges)
        try context.save()
        #expect(try UndoFixtures.rows(path, "SELECT ZPRICE FROM ZBOOK WHERE Z_PK = 1") == [["10.0"]])
        try undo.redo()
        try context.save()
        #expect(try UndoFixtures.rows(path, "SELECT ZPRICE FROM ZBOOK WHERE Z_PK = 1") == [["99.0"]])
    }

    @Test func undoingASavedDeleteBringsTheRowBackUnderANewKey() throws {
        let (context, undo, path) = try UndoFixtures.seededBookStore()
        let book = try context.existingObject(entity: "Book", primaryKey: 2)
        let fiction = try context.existingObject(entity: "BookCategory", primaryKey: 1)
        try context.delete(book)
        undo.endEvent()
        try context.save()
        #expect(try UndoFixtures.rows(path, "SELECT COUNT(*) FROM ZBOOK") == [["2"]])
        try undo.undo()
        #expect(book.isInserted)
        #expect(try fiction.objects(forKey: "books").contains { $0 === book })
        try context.save()
        #expect(try UndoFixtures.rows(path, "SELECT Z_PK, ZTITLE, ZCATEGORY FROM ZBOOK WHERE ZTITLE = 'The second book'") == [["4", "The second book", "1"]])
        try undo.redo()
        try context.save()
        #expect(try UndoFixtures.rows(path, "SELECT COUNT(*) FROM ZBOOK") == [["2"]])
    }

    @Test func redoOfAnInsertWhoseUndoWasSavedInsertsItAgain() throws {
        let (context, undo, path) = try UndoFixtures.seededBookStore()
        let book = try context.insert("Book")
        try book.set("title", "Dune")
        undo.endEvent()
        try context.save()
        try undo.undo()
        try context.save()
        #expect(try UndoFixtures.rows(path, "SELECT COUNT(*) FROM ZBOOK WHERE ZTITLE = 'Dune'") == [["0"]])
        try undo.redo()
        #expect(book.isInserted)
        try context.save()
        #expect(try UndoFixtures.rows(path, "SELECT COUNT(*) FROM ZBOOK WHERE ZTITLE = 'Dune'") == [["1"]])
    }

    @Test func undoOfAnUnsavedGroupAfterASaveOfOthersKeepsTheSavedOnes() throws {
        let (context, undo, path) = try UndoFixtures.seededBookStore()
        try context.insert("Book").set("title", "saved")
        undo.endEvent()
        try context.save()
        try context.insert("Book").set("title", "unsaved")
        undo.endEvent()
        try undo.undo()
        #expect(!context.hasChanges)
        try context.save()
        #expect(try UndoFixtures.rows(path, "SELECT ZTITLE FROM ZBOOK WHERE Z_PK > 3") == [["saved"]])
    }

    @Test func aFailingUndoLeavesTheContextAndTheStackAsTheyWere() throws {
        let (context, undo, _) = try UndoFixtures.seededBookStore()
        let first = try context.existingObject(entity: "Book", primaryKey: 1)
        let second = try context.existingObject(entity: "Book", primaryKey: 2)
        try first.set("title", "changed 1")
        try second.set("title", "changed 2")
        undo.setActionName("retitle")
        undo.endEvent()
        // Another observer refuses changes to the first book: the undo reverts the second
        // book, fails on the first, and must put the second back.
        struct Refused: Error {}
        context.changeObservers.append { object, _ in if object === first { throw Refused() } }
        #expect(throws: UndoError.self) { try undo.undo() }
        #expect(try first.get("title", as: String.self) == "changed 1")
        #expect(try second.get("title", as: String.self) == "changed 2")
        #expect(undo.undoGroupCount == 1)
        #expect(undo.undoActionName == "retitle")
        #expect(!undo.canRedo)
        #expect(!undo.isUndoing)
        do {
            try undo.undo()
        } catch let error as UndoError {
            #expect(error.description.hasPrefix("could not apply undo group #1 (retitle)"))
        }
        context.changeObservers.removeLast()
        try undo.undo()
        #expect(try first.get("title", as: String.self) == "The first book")
        #expect(try second.get("title", as: String.self) == "The second book")
    }
}
