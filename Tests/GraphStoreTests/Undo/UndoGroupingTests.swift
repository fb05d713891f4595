import Foundation
import Testing
@testable import GraphStore

/// Grouping by event, manual nested groups, and their errors.
@Suite struct UndoGroupingTests {
    @Test func changesBetweenEventBoundariesFormOneGroup() throws {
        let (context, undo, _) = try UndoFixtures.bookStore()
        #expect(undo.groupsByEvent)
        for title in ["A", "B", "C"] { try context.insert("Book").set("title", title) }
        #expect(undo.groupingLevel == 1)
        #expect(undo.canUndo)
        undo.endEvent()
        #expect(undo.groupingLevel == 0)
        #expect(undo.undoGroupCount == 1)
        // An event with no changes makes no group.
        undo.endEvent()
        #expect(undo.undoGroupCount == 1)
        try undo.undo()
        #expect(context.insertedObjects.isEmpty)
    }

    @Test func undoClosesTheOpenEventGroupFirst() throws {
        let (context, undo, _) = try UndoFixtures.bookStore()
        try context.insert("Book").set("title", "A")
        undo.endEvent()
        try context.insert("Book").set("title", "B")
        try undo.undo()
        #expect(try UndoFixtures.titles(context) == ["A"])
        #expect(undo.redoGroupCount == 1)
    }

    @Test func manualGroupsNestAndUndoTogether() throws {
        let (context, undo, _) = try UndoFixtures.bookStore()
        undo.groupsByEvent = false
        undo.beginUndoGrouping()
        try context.insert("Book").set("title", "A")
        undo.beginUndoGrouping()
        try context.insert("Book").set("title", "B")
        #expect(undo.groupingLevel == 2)
        try undo.endUndoGrouping()
        undo.endEvent()    // no effect on manual groups
        #expect(undo.groupingLevel == 1)
        try context.insert("Book").set("title", "C")
        try undo.endUndoGrouping()
        #expect(undo.undoGroupCount == 1)
        try undo.undo()
        #expect(try UndoFixtures.titles(context).isEmpty)
        try undo.redo()
        #expect(try UndoFixtures.titles(context) == ["A", "B", "C"])
    }

    @Test func anExplicitGroupSpansEventsWhenGroupingByEvent() throws {
        let (context, undo, _) = try UndoFixtures.bookStore()
        undo.beginUndoGrouping()
        try context.insert("Book").set("title", "A")
        undo.endEvent()
        try context.insert("Book").set("title", "B")
        undo.endEvent()
        #expect(undo.undoGroupCount == 0)
        try undo.endUndoGrouping()
        #expect(undo.undoGroupCount == 1)
    }

    @Test func mismatchedEndIsAnError() throws {
        let (_, undo, _) = try UndoFixtures.bookStore()
        #expect(throws: UndoError.endWithoutBegin) { try undo.endUndoGrouping() }
        undo.beginUndoGrouping()
        try undo.endUndoGrouping()
        #expect(throws: UndoError.endWithoutBegin) { try undo.endUndoGrouping() }
        #expect(throws: UndoError.endWithoutBegin) { try undo.revertOpenGroup() }
    }

    @Test func changingWithoutAGroupWhenNotGroupingByEventIsAnError() throws {
        let (context, undo, _) = try UndoFixtures.bookStore()
        let book = try context.insert("Book")
        undo.endEvent()
        undo.groupsByEvent = false
        #expect(throws: UndoError.noOpenGroup) { try book.set("title", "A") }
        #expect(try book.value(forKey: "title") == nil)
        #expect(throws: UndoError.noOpenGroup) { try context.insert("Book") }
        #expect(context.insertedObjects.count == 1)
        #expect(throws: UndoError.noOpenGroup) { try context.delete(book) }
        #expect(!book.isDeleted)
    }

    @Test func undoWithNestedGroupsOpenIsAnError() throws {
        let (context, undo, _) = try UndoFixtures.bookStore()
        undo.beginUndoGrouping()
        undo.beginUndoGrouping()
        try context.insert("Book")
        #expect(throws: UndoError.nestedGroupsOpen(level: 2)) { try undo.undo() }
        #expect(throws: UndoError.nestedGroupsOpen(level: 2)) { try undo.redo() }
        try undo.endUndoGrouping()
        // At level 1, undo closes the group and takes it back.
        try undo.undo()
        #expect(context.insertedObjects.isEmpty)
        #expect(undo.groupingLevel == 0)
    }

    @Test func revertOpenGroupTakesBackOnlyTheInnermostGroup() throws {
        let (context, undo, _) = try UndoFixtures.bookStore()
        undo.beginUndoGrouping()
        try context.insert("Book").set("title", "kept")
        undo.beginUndoGrouping()
        let failed = try context.insert("Book")
        try failed.set("title", "failed")
        try undo.revertOpenGroup()
        #expect(try UndoFixtures.titles(context) == ["kept"])
        #expect(failed.managedObjectContext == nil)
        #expect(undo.groupingLevel == 1)
        try undo.endUndoGrouping()
        #expect(undo.undoGroupCount == 1)
        #expect(!undo.canRedo)
        try undo.undo()
        #expect(try UndoFixtures.titles(context).isEmpty)
    }

    @Test func actionNamesFollowTheirGroups() throws {
        let (context, undo, _) = try UndoFixtures.bookStore()
        #expect(undo.undoActionName == nil)
        try context.insert("Book")
        undo.setActionName("first")
        #expect(undo.undoActionName == "first")
        undo.endEvent()
        try context.insert("Book")
        undo.endEvent()
        #expect(undo.undoActionName == "")
        undo.setActionName("second")    // no group open: names the last group
        #expect(undo.undoActionName == "second")
        try undo.undo()
        #expect(undo.undoActionName == "first")
        #expect(undo.redoActionName == "second")
        try undo.undo()
        #expect(undo.undoActionName == nil)
        #expect(undo.redoActionName == "first")
        try undo.redo()
        #expect(undo.undoActionName == "first")
        #expect(undo.redoActionName == "second")
    }

    @Test func nothingToUndoOrRedoDoesNothing() throws {
        let (_, undo, _) = try UndoFixtures.bookStore()
        #expect(!undo.canUndo)
        #expect(!undo.canRedo)
        try undo.undo()
        try undo.redo()
        #expect(undo.lastGroupNumber == 0)
    }

    @Test func groupNumbersStayWithTheirGroups() throws {
        let (context, undo, _) = try UndoFixtures.bookStore()
        for _ in 0..<3 {
            try context.insert("Book")
            undo.endEvent()
        }
        try undo.undo()
        try undo.undo()
        #expect(undo.history.redoGroups.map(\.number) == [2, 3])
        try undo.redo()
        #expect(undo.history.undoGroups.map(\.number) == [2, 1])
        #expect(undo.lastGroupNumber == 3)
    }

    @Test func aRevertedGroupLeavesTheRedoStackAlone() throws {
        let (context, undo, _) = try UndoFixtures.bookStore()
        try context.insert("Book").set("title", "A")
        undo.endEvent()
        try undo.undo()
        #expect(undo.redoGroupNumber == 1)
        // A change hides the redo stack; taking it back shows it again.
        try context.insert("Book").set("title", "failed")
        #expect(!undo.canRedo)
        #expect(undo.redoActionName == nil)
        #expect(undo.undoGroupNumber == 0)
        try undo.revertOpenGroup()
        #expect(undo.canRedo)
        try undo.redo()
        #expect(try UndoFixtures.titles(context) == ["A"])
        // A change that becomes a group clears it for good.
        try undo.undo()
        try context.insert("Book")
        undo.endEvent()
        #expect(!undo.canRedo)
        #expect(undo.redoGroupNumber == nil)
    }
}
