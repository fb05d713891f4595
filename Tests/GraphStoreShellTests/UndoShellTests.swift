import Foundation
import Testing
@testable import GraphStore
@testable import GraphStoreShell

/// The REPL's undo: one group per command line, begin … end, undo/redo, .undo.
@Suite struct UndoShellTests {
    @Test func eachMutatingLineIsOneGroupNamedByTheLine() throws {
        let run = try UndoShellRun()
        try run.execute(#"insert Book title="Dune" price=18.5"#)
        try run.execute(".rows Book")
        try run.execute("set Book/p1 price=11")
        let manager = try #require(run.manager)
        #expect(manager.undoGroupCount == 2)
        #expect(manager.groupingLevel == 0)
        #expect(manager.history.undoGroups.map(\.actionName) == ["set Book/p1 price=11", #"insert Book title="Dune" price=18.5"#])
        // A line that changes nothing makes no group.
        try run.execute("set Book/p1 price=11")
        #expect(manager.undoGroupCount == 2)
    }

    @Test func withoutWriteThereIsNoUndoManager() throws {
        let run = try UndoShellRun(write: false)
        #expect(throws: ShellError.self) { try run.execute("undo") }
        #expect(throws: ShellError.self) { try run.execute(".undo") }
        #expect(throws: ShellError.self) { try run.execute(".journal x.journal") }
        #expect(run.shell.context?.undoManager == nil)
    }

    @Test func undoAndRedoTakeCountsAndSayWhatTheyDid() throws {
        let run = try UndoShellRun()
        for n in 4...6 { try run.execute("insert Book title=\"Book \(n)\"") }
        #expect(try run.execute("undo 2") == "undid #3 insert Book title=\"Book 6\"\nundid #2 insert Book title=\"Book 5\"\n")
        #expect(try run.execute("redo") == "redid #2 insert Book title=\"Book 5\"\n")
        #expect(run.shell.context?.insertedObjects.count == 2)
        #expect(throws: ShellError.self) { try run.execute("redo 2") }
        #expect(throws: ShellError.self) { try run.execute("undo 0") }
        #expect(throws: ShellError.self) { try run.execute("undo two") }
        #expect(throws: ShellError.self) { try run.execute("undo 1 2") }
        do {
            try run.execute("undo 3")
            Issue.record("undo 3 with two groups should fail")
        } catch let error as ShellError {
            #expect(error.message == "undo 3: only 2 groups to undo")
        }
        // Nothing was undone by the refused commands.
        #expect(run.manager?.undoGroupCount == 2)
    }

    @Test func beginEndMakesOneGroupOfSeveralLines() throws {
        let run = try UndoShellRun()
        try run.execute("begin restock")
        try run.execute(#"insert Book title="A""#)
        try run.execute("set Book/p1 price=1")
        #expect(run.manager?.undoGroupCount == 0)
        #expect(try run.execute("end") == "ended group #1 (2 commands)\n")
        #expect(run.manager?.undoActionName == "restock")
        try run.execute("undo")
        // Book p1 is back as it was read: no change is left (Core Data would keep it in
        // updatedObjects with no changed value; a script would then end "with unsaved changes").
        #expect(run.shell.context?.hasChanges == false)
        #expect(run.shell.context?.insertedObjects.isEmpty == true)
        try run.execute("begin")
        try run.execute(#"insert Book title="B""#)
        try run.execute(#"insert Book title="C""#)
        try run.execute("end")
        #expect(run.manager?.undoActionName == #"insert Book title="B"; insert Book title="C""#)
        try run.execute("begin")
        #expect(try run.execute("end") == "ended group: nothing changed\n")
    }

    @Test func groupErrors() throws {
        let run = try UndoShellRun()
        #expect(throws: ShellError.self) { try run.execute("end") }
        try run.execute("begin")
        #expect(throws: ShellError.self) { try run.execute("begin") }
        #expect(throws: ShellError.self) { try run.execute("undo") }
        #expect(throws: ShellError.self) { try run.execute("redo") }
        #expect(throws: ShellError.self) { try run.execute("end now") }
        try run.execute("end")
        #expect(run.manager?.groupingLevel == 0)
    }

    @Test func aFailingLineIsTakenBackWholeOutsideAGroupAndAloneInsideOne() throws {
        let run = try UndoShellRun()
        // The stopgap insert inserts, then fails on the unknown key: nothing may remain.
        #expect(throws: ShellError.self) { try run.execute("insert Book title=X bogus=1") }
        #expect(run.shell.context?.hasChanges == false)
        #expect(run.manager?.canUndo == false)
        try run.execute("begin")
        try run.execute(#"insert Book title="kept""#)
        #expect(throws: ShellError.self) { try run.execute("insert Book title=Y bogus=1") }
        try run.execute("end")
        #expect(run.shell.context?.insertedObjects.count == 1)
        try run.execute("undo")
        #expect(run.shell.context?.insertedObjects.isEmpty == true)
    }

    @Test func undoListShowsBothStacks() throws {
        let run = try UndoShellRun()
        try run.execute("set Book/p1 price=11")
        try run.execute("delete Book/p3")
        try run.execute("undo")
        let listing = try run.execute(".undo")
        #expect(listing == """
            undo stack (1 group, next first):
              #1 set Book/p1 price=11
                  Book p1.price: 10 → 11
            redo stack (1 group, next first):
              #2 delete Book/p3
                  delete Book p3
                  BookCategory p2.books: - Book p3

            """)
        try run.execute("begin")
        try run.execute("set Book/p2 title=Second")
        #expect(try run.execute(".undo").hasPrefix("open group (1 change so far):\n      Book p2.title: \"The second book\" → \"Second\"\n"))
    }

    @Test func undoListCapsLongGroups() throws {
        let run = try UndoShellRun()
        try run.execute("begin")
        for n in 1...15 { try run.execute("insert Book title=\"B\(n)\"") }
        try run.execute("end")
        let listing = try run.execute(".undo")
        // 30 changes: 20 shown, 10 counted.
        #expect(listing.components(separatedBy: "\n").count == 2 + 20 + 1 + 2)
        #expect(listing.contains("      … 10 more changes\n"))
    }

    @Test func levelsOfUndo() throws {
        let run = try UndoShellRun()
        #expect(try run.execute(".undo levels") == "levels of undo: unlimited\n")
        #expect(try run.execute(".undo levels 2") == "levels of undo: 2\n")
        for price in 1...4 { try run.execute("set Book/p1 price=\(price)") }
        #expect(run.manager?.undoGroupCount == 2)
        #expect(throws: ShellError.self) { try run.execute(".undo levels -1") }
        #expect(throws: ShellError.self) { try run.execute(".undo everything") }
    }
}
