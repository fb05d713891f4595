import Foundation
import Testing
@testable import GraphStore

/// The undo scenarios of the BookStore chapter, on a copy of the example seed
/// (2 categories, 3 books).
@Suite struct BookStoreUndoScenarioTests {
    private func insertBook(_ n: Int, in context: ManagedObjectContext, category: ManagedObject) throws {
        let book = try context.insert("Book")
        try book.set("title", "Book \(n)")
        try book.set("price", Double(n))
        try book.setObject(category, forKey: "category")
    }

    @Test func fiveBooksInOneGroupGoWithOneUndoAndComeBackWithOneRedo() throws {
        let (context, undo, _) = try UndoFixtures.seededBookStore()
        let fiction = try context.existingObject(entity: "BookCategory", primaryKey: 1)
        for n in 4...8 { try insertBook(n, in: context, category: fiction) }
        undo.setActionName("insert five books")
        undo.endEvent()
        #expect(try context.fetch("Book").count == 8)
        try undo.undo()
        #expect(try context.fetch("Book").count == 3)
        #expect(try fiction.objects(forKey: "books").count == 2)
        try undo.redo()
        #expect(try context.fetch("Book").count == 8)
        #expect(try fiction.objects(forKey: "books").count == 7)
        #expect(undo.undoActionName == "insert five books")
    }

    @Test func oneGroupPerBookUndoesTheNinthThenTheEighth() throws {
        let (context, undo, _) = try UndoFixtures.seededBookStore()
        let fiction = try context.existingObject(entity: "BookCategory", primaryKey: 1)
        for n in 4...9 {
            try insertBook(n, in: context, category: fiction)
            undo.endEvent()
        }
        try undo.undo()
        #expect(try !UndoFixtures.titles(context).contains("Book 9"))
        #expect(try UndoFixtures.titles(context).contains("Book 8"))
        try undo.redo()
        try undo.undo()
        try undo.undo()
        let titles = try UndoFixtures.titles(context)
        #expect(!titles.contains("Book 9") && !titles.contains("Book 8") && titles.contains("Book 7"))
        #expect(titles.count == 7)
    }

    @Test func undoAfterSaveThenSaveLeavesTheStoreWithoutThem() throws {
        let (context, undo, path) = try UndoFixtures.seededBookStore()
        let fiction = try context.existingObject(entity: "BookCategory", primaryKey: 1)
        for n in 4...8 { try insertBook(n, in: context, category: fiction) }
        undo.endEvent()
        try context.save()
        #expect(try UndoFixtures.rows(path, "SELECT COUNT(*) FROM ZBOOK") == [["8"]])
        try undo.undo()
        #expect(context.deletedObjects.count == 5)
        try context.save()
        #expect(try UndoFixtures.rows(path, "SELECT Z_PK, ZTITLE FROM ZBOOK ORDER BY Z_PK") ==
            [["1", "The first book"], ["2", "The second book"], ["3", "The third book"]])
        // Fiction's books are its two seed books again.
        let reopened = ManagedObjectContext(store: try PersistentStore(path: path, model: Fixtures.bookStoreModel(), readOnly: true))
        #expect(try reopened.existingObject(entity: "BookCategory", primaryKey: 1).objects(forKey: "books").count == 2)
    }

    @Test func levelsOfUndoTwoKeepsOnlyTwoGroups() throws {
        let (context, undo, _) = try UndoFixtures.seededBookStore()
        undo.levelsOfUndo = 2
        let fiction = try context.existingObject(entity: "BookCategory", primaryKey: 1)
        for n in 4...9 {
            try insertBook(n, in: context, category: fiction)
            undo.endEvent()
        }
        #expect(undo.undoGroupCount == 2)
        try undo.undo()
        try undo.undo()
        #expect(!undo.canUndo)
        try undo.undo()
        #expect(try context.fetch("Book").count == 7)
    }
}
