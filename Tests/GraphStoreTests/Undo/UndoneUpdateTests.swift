import Foundation
import Testing
@testable import GraphStore

/// An object that undo puts back as it was read has no change left.
@Suite struct UndoneUpdateTests {
    @Test func undoingAChangeLeavesNoUpdatedObject() throws {
        let (context, undo, path) = try UndoFixtures.seededBookStore()
        let book = try context.existingObject(entity: "Book", primaryKey: 1)
        try book.set("price", 5.0)
        undo.endEvent()
        #expect(context.updatedObjects.count == 1)
        try undo.undo()
        #expect(!context.hasChanges)
        #expect(context.updatedObjects.isEmpty)
        #expect(!book.isUpdated)
        // Nothing to write: the row keeps its version.
        try context.save()
        #expect(try UndoFixtures.rows(path, "SELECT Z_OPT FROM ZBOOK WHERE Z_PK = 1") == [["1"]])
        // Redo makes it a change again.
        try undo.redo()
        #expect(book.changedKeys() == ["price"])
        #expect(context.updatedObjects.count == 1)
    }

    @Test func undoingARelationshipChangeLeavesNoUpdatedObject() throws {
        let (context, undo, _) = try UndoFixtures.seededBookStore()
        let book = try context.existingObject(entity: "Book", primaryKey: 2)
        let biography = try context.existingObject(entity: "BookCategory", primaryKey: 2)
        try book.setObject(biography, forKey: "category")
        undo.endEvent()
        // The book and both categories' to-manys changed.
        #expect(context.updatedObjects.count == 3)
        try undo.undo()
        #expect(!context.hasChanges, "\(context.updatedObjects.map { "\($0): \($0.changedKeys())" })")
    }

    /// A change that undo takes back only in part keeps the object updated.
    @Test func aPartlyUndoneObjectStaysUpdated() throws {
        let (context, undo, _) = try UndoFixtures.seededBookStore()
        let book = try context.existingObject(entity: "Book", primaryKey: 1)
        try book.set("price", 5.0)
        undo.endEvent()
        try book.set("title", "Changed")
        undo.endEvent()
        try undo.undo()
        #expect(book.changedKeys() == ["price"])
        #expect(context.hasChanges)
    }

    @Test func aRevertedOpenGroupLeavesNoUpdatedObject() throws {
        let (context, undo, _) = try UndoFixtures.seededBookStore()
        undo.beginUndoGrouping()
        try context.existingObject(entity: "Book", primaryKey: 1).set("price", 5.0)
        try undo.revertOpenGroup()
        #expect(!context.hasChanges)
    }
}
