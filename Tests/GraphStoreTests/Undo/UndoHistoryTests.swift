import Foundation
import Testing
@testable import GraphStore

/// The history lists both stacks with old → new values.
@Suite struct UndoHistoryTests {
    @Test func undoGroupsListChangesAsMadeAndRedoGroupsAsRedoWillMakeThem() throws {
        let (context, undo, _) = try UndoFixtures.seededBookStore()
        let book = try context.existingObject(entity: "Book", primaryKey: 1)
        let biography = try context.existingObject(entity: "BookCategory", primaryKey: 2)
        try book.set("price", 11.0)
        undo.setActionName("set price")
        undo.endEvent()
        try book.set("price", 12.0)
        try book.setObject(biography, forKey: "category")
        undo.setActionName("move")
        undo.endEvent()
        let history = undo.history
        #expect(history.openGroup == nil)
        #expect(history.undoGroups.map(\.actionName) == ["move", "set price"])
        #expect(history.undoGroups[1].changes.map(\.description) == ["Book/p1.price: 10 → 11"])
        #expect(history.undoGroups[0].changes.map(\.description) == [
            "Book/p1.price: 11 → 12",
            "BookCategory/p1.books: - Book/p1",
            "BookCategory/p2.books: + Book/p1",
            "Book/p1.category: BookCategory/p1 → BookCategory/p2",
        ])
        try undo.undo()
        try undo.undo()
        let after = undo.history
        #expect(after.undoGroups.isEmpty)
        #expect(after.redoGroups.map(\.number) == [1, 2])
        #expect(after.redoGroups[0].changes.map(\.description) == ["Book/p1.price: 10 → 11"])
        #expect(after.redoGroups[1].changes.map(\.description) == [
            "Book/p1.price: 11 → 12",
            "BookCategory/p1.books: - Book/p1",
            "BookCategory/p2.books: + Book/p1",
            "Book/p1.category: BookCategory/p1 → BookCategory/p2",
        ])
    }

    @Test func insertsAndDeletesAndTheOpenGroup() throws {
        let (context, undo, _) = try UndoFixtures.seededBookStore()
        let book = try context.insert("Book")
        try book.set("title", "Say \"hi\"")
        undo.endEvent()
        try context.delete(book)
        let history = undo.history
        #expect(history.openGroup?.changes.map(\.description) == ["delete Book/t1"])
        #expect(history.undoGroups[0].changes.map(\.description) == ["insert Book/t1", #"Book/t1.title: nil → "Say \"hi\"""#])
        try undo.undo()
        #expect(undo.history.redoGroups[0].changes.map(\.description) == ["delete Book/t1"])
        #expect(UndoChange.insert(book.objectID).key == nil)
        #expect(UndoChange.insert(book.objectID).object == book.objectID)
    }
}
