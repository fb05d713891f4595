import Foundation
import Testing
@testable import GraphStore

/// Levels of undo, registration counting, removing all actions, rollback and reset.
@Suite struct UndoRegistrationTests {
    @Test func levelsOfUndoDropTheOldestGroups() throws {
        let (context, undo, _) = try UndoFixtures.bookStore()
        undo.levelsOfUndo = 2
        for title in ["A", "B", "C", "D"] {
            try context.insert("Book").set("title", title)
            undo.endEvent()
        }
        #expect(undo.undoGroupCount == 2)
        try undo.undo()
        try undo.undo()
        try undo.undo()    // nothing left: A and B rolled off
        #expect(try UndoFixtures.titles(context) == ["A", "B"])
        #expect(undo.redoGroupCount == 2)
        undo.levelsOfUndo = 1
        #expect(undo.redoGroupCount == 1)
        undo.levelsOfUndo = 0
        for _ in 0..<10 {
            try context.insert("Book")
            undo.endEvent()
        }
        #expect(undo.undoGroupCount == 10)
        undo.levelsOfUndo = -3
        #expect(undo.levelsOfUndo == 0)
    }

    @Test func registrationCountsLikeCoreData() throws {
        let (context, undo, _) = try UndoFixtures.bookStore()
        #expect(undo.isUndoRegistrationEnabled)
        undo.disableUndoRegistration()
        undo.disableUndoRegistration()
        try context.insert("Book").set("title", "unregistered")
        try undo.enableUndoRegistration()
        #expect(!undo.isUndoRegistrationEnabled)
        try context.insert("Book")
        try undo.enableUndoRegistration()
        #expect(undo.isUndoRegistrationEnabled)
        #expect(throws: UndoError.registrationNotDisabled) { try undo.enableUndoRegistration() }
        #expect(undo.openChangeCount == 0)
        try context.insert("Book").set("title", "registered")
        undo.endEvent()
        try undo.undo()
        #expect(try UndoFixtures.titles(context) == ["", "unregistered"])
    }

    @Test func removeAllActionsClearsBothStacksAndReenables() throws {
        let (context, undo, _) = try UndoFixtures.bookStore()
        for _ in 0..<3 {
            try context.insert("Book")
            undo.endEvent()
        }
        try undo.undo()
        undo.disableUndoRegistration()
        undo.removeAllActions()
        #expect(!undo.canUndo)
        #expect(!undo.canRedo)
        #expect(undo.isUndoRegistrationEnabled)
        #expect(context.insertedObjects.count == 2)
    }

    @Test func removeAllActionsKeepsOpenGroupsOpen() throws {
        let (context, undo, _) = try UndoFixtures.bookStore()
        undo.beginUndoGrouping()
        try context.insert("Book")
        undo.removeAllActions()
        #expect(undo.groupingLevel == 1)
        #expect(undo.openChangeCount == 0)
        try context.insert("Book")
        try undo.endUndoGrouping()
        try undo.undo()
        #expect(context.insertedObjects.count == 1)
    }

    @Test func rollbackAndResetRemoveAllActions() throws {
        let (context, undo, _) = try UndoFixtures.bookStore()
        try context.insert("Book")
        undo.endEvent()
        context.rollback()
        #expect(!undo.canUndo)
        try context.insert("Book")
        undo.endEvent()
        context.reset()
        #expect(!undo.canUndo)
    }

    @Test func removingTheManagerClearsItAndMovingItUninstallsItFromTheFirstContext() throws {
        let (context, undo, path) = try UndoFixtures.bookStore()
        try context.insert("Book")
        undo.endEvent()
        context.undoManager = nil
        #expect(!undo.canUndo)
        #expect(throws: UndoError.notInstalled) {
            undo.beginUndoGrouping()
            try undo.revertOpenGroup()
        }
        let other = ManagedObjectContext(store: try PersistentStore(path: path, model: Fixtures.bookStoreModel(), readOnly: false))
        context.undoManager = undo
        other.undoManager = undo
        #expect(context.undoManager == nil)
        #expect(context.changeObservers.isEmpty)
        #expect(other.changeObservers.count == 1)
    }

    @Test func withdrawnObjectsAreFreedWhenTheirGroupsGo() throws {
        let (context, undo, _) = try UndoFixtures.bookStore()
        weak var category: ManagedObject?
        weak var book: ManagedObject?
        do {
            let c = try context.insert("BookCategory")
            let b = try context.insert("Book")
            try b.setObject(c, forKey: "category")
            category = c
            book = b
        }
        undo.endEvent()
        try undo.undo()
        #expect(category != nil)
        // A new group drops the redo group: the category and book pointed at each other.
        try context.insert("Page")
        #expect(category != nil)
        undo.endEvent()
        #expect(category == nil)
        #expect(book == nil)
    }
}
