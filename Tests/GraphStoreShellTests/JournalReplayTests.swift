import Foundation
import Testing
@testable import GraphStore
@testable import GraphStoreShell
import TestScratch

/// `.journal` records undo groups as command lines; `replay` applies them group by group.
@Suite struct JournalReplayTests {
    /// A session touching every kind of change, with groups, saves, undos and redos.
    static let session = [
        "insert BookCategory name=Poetry",
        #"insert Book title="Odes" price=9"#,
        "link Book/t2.category BookCategory/t1",
        "begin restock",
        "set Book/p1 price=11",
        "set Book/p2 price=16",
        "delete Book/p3",
        "end",
        "save",
        #"insert Book title="Draft" price=1"#,
        "undo",
        #"insert Book title="Sonnets" price=7"#,
        "link Book/t4.category BookCategory/p1",
        "undo",
        "redo",
        #"set Book/p1 title="The first book, revised""#,
        "save",
        "undo",
        "save",
        "begin",
        "unlink Book/p2.category BookCategory/p1",
        "link Book/p2.category BookCategory/p3",
        "end",
        "save",
        #"insert Book title="Temp" price=1"#,
        "rollback",
        "delete BookCategory/p2",
        "save",
    ]

    static let tables = ["ZBOOK", "ZBOOKCATEGORY", "ZPAGE", "Z_PRIMARYKEY"]

    private func snapshot(_ run: UndoShellRun) throws -> [String: [[String]]] {
        var result: [String: [[String]]] = [:]
        for table in Self.tables { result[table] = try run.rows("SELECT * FROM \(table) ORDER BY 1, 2") }
        return result
    }

    /// The journal is written in place: through a symbolic link, the link stays and its
    /// target holds the journal (it used to be replaced by renaming a new file over it,
    /// which also turned a device such as /dev/full into a plain file).
    @Test func aJournalIsWrittenInPlaceThroughALink() throws {
        let run = try UndoShellRun()
        let target = run.directory + "/target.journal"
        let link = run.directory + "/link.journal"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(run.run([".journal \(link)", "set Book/p1 price=11"]) == 0, "\(run.diagnostics)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasSuffix("set Book/p1 price=11\n"))
    }

    @Test func aJournalReplayedIntoAFreshCopyGivesIdenticalRows() throws {
        let recorded = try UndoShellRun()
        let journal = recorded.directory + "/session.journal"
        #expect(recorded.run([".journal \(journal)"] + Self.session) == 0, "\(recorded.diagnostics)")
        let original = try snapshot(recorded)
        #expect(original["ZBOOK"]?.count == 4)

        let fresh = try UndoShellRun()
        #expect(try snapshot(fresh) != original)
        #expect(fresh.run(["replay \(journal)"]) == 0, "\(fresh.diagnostics)")
        #expect(try snapshot(fresh) == original)
        #expect(fresh.output.hasSuffix("replayed \(journal): 11 groups, 10 other commands\n"))
    }

    @Test func theJournalHoldsGroupsAsCommandLines() throws {
        let run = try UndoShellRun()
        let journal = run.directory + "/j.journal"
        let status = run.run([
            ".journal \(journal)", #"insert Book title="A""#, ".rows Book", "set Book/p1 price=10", "begin two", "set Book/p1 price=1",
            "set Book/p2 price=2", "end", "begin", "set Book/p3 price=3", "end", "undo 2", "redo", "save", ".journal off",
            "set Book/p1 price=5",
        ])
        #expect(status == 0)
        let text = try String(contentsOfFile: journal, encoding: .utf8)
        #expect(text == """
            -- graphstore journal of \((run.path as NSString).lastPathComponent)
            insert Book title="A"
            begin two
            set Book/p1 price=1
            set Book/p2 price=2
            end
            set Book/p3 price=3
            undo 2
            redo 1
            save

            """)
    }

    @Test func openingAnotherStoreEndsTheJournal() throws {
        let run = try UndoShellRun()
        let other = try UndoShellRun()
        let journal = run.directory + "/j.journal"
        // (.open refuses to drop unsaved changes: they are saved first.)
        #expect(run.run([".journal \(journal)", "set Book/p1 price=1", "save", ".open \(other.path)", "set Book/p1 price=2", ".journal"]) == 0)
        #expect(run.diagnostics == "note: journal \(journal) closed: another store was opened\n")
        #expect(run.output.hasSuffix("journal: off\n"))
        #expect(try String(contentsOfFile: journal, encoding: .utf8).hasSuffix("set Book/p1 price=1\nsave\n"))
        #expect(run.manager?.undoGroupCount == 1)
    }

    @Test func anUndoBeforeTheJournalStartedIsNoted() throws {
        let run = try UndoShellRun()
        run.run(["set Book/p1 price=1", ".journal \(run.directory)/j.journal", "undo"])
        #expect(run.diagnostics.contains("note: this undo takes back groups made before the journal started"))
    }

    @Test func eachReplayedGroupIsOneUndoGroup() throws {
        let journal = try writeJournal("""
            begin two books
            insert Book title="A"
            insert Book title="B"
            end
            set Book/p1 price=2
            """)
        let run = try UndoShellRun()
        try run.execute("replay \(journal)")
        #expect(run.manager?.history.undoGroups.map(\.actionName) == ["set Book/p1 price=2", "two books"])
        try run.execute("undo")
        try run.execute("undo")
        #expect(run.shell.context?.insertedObjects.isEmpty == true)
        #expect(run.output == """
            replayed #1 two books
            replayed #2 set Book/p1 price=2
            replayed \(journal): 2 groups, 0 other commands
            undid #2 set Book/p1 price=2
            undid #1 two books

            """)
    }

    @Test func replayStopsAtTheFirstFailureWithItsLineAndTakesBackItsGroup() throws {
        let journal = try writeJournal("""
            -- a comment
            set Book/p1 price=2
            begin broken
            insert Book title="C"
            set Book/p9 price=1
            end
            set Book/p2 price=3
            """)
        let run = try UndoShellRun()
        do {
            try run.execute("replay \(journal)")
            Issue.record("the replay should fail")
        } catch let error as ShellError {
            #expect(error.message.hasPrefix("\(journal):5: "))
            #expect(error.message.hasSuffix("(replay stopped; 1 group before it applied)"))
        }
        #expect(run.shell.context?.insertedObjects.isEmpty == true)
        #expect(run.manager?.undoGroupCount == 1)
        #expect(run.manager?.groupingLevel == 0)
        #expect(run.shell.undoState.block == nil)
        #expect(try run.shell.context?.existingObject(entity: "Book", primaryKey: 2).get("price", as: Double.self) == 15)
    }

    @Test func dryRunShowsTheChangesAndChangesNothing() throws {
        let journal = try writeJournal("""
            set Book/p1 price=2
            begin
            insert Book title="C"
            delete Book/p3
            end
            save
            """)
        let run = try UndoShellRun()
        try run.execute("set Book/p2 price=1")
        try run.execute("undo")
        let output = try run.execute("replay \(journal) --dry-run")
        #expect(output == """
            group 1: set Book/p1 price=2
                  Book p1.price: 10 → 2
            group 2: insert Book title="C"; delete Book/p3
                  insert Book t1
                  Book t1.title: nil → "C"
                  delete Book p3
                  BookCategory p2.books: - Book p3
            would run: save (line 6, not previewed)
            dry run of \(journal): 2 groups, 5 changes; nothing was changed

            """)
        // The stacks are as they were: the redo of the earlier undo is still there.
        #expect(run.manager?.undoGroupCount == 0)
        #expect(run.manager?.redoGroupCount == 1)
        #expect(run.shell.context?.insertedObjects.isEmpty == true)
        #expect(run.shell.context?.deletedObjects.isEmpty == true)
        #expect(try run.shell.context?.existingObject(entity: "Book", primaryKey: 1).get("price", as: Double.self) == 10)
    }

    /// A dry run leaves nothing behind: no object listed as updated with no changed key,
    /// nothing for `.changes` to list or an exit to warn about.
    @Test func dryRunLeavesNoChangeBehind() throws {
        let journal = try writeJournal("set Book/p1 price=2\nlink Book/p2.category BookCategory/p2\ndelete Book/p3\ninsert Book title=New\n")
        for write in [false, true] {
            let run = try UndoShellRun(write: write)
            _ = try run.execute("replay \(journal) --dry-run")
            let context = try #require(run.shell.context)
            #expect(!context.hasChanges, "write: \(write)")
            #expect(context.updatedObjects.isEmpty && context.insertedObjects.isEmpty && context.deletedObjects.isEmpty)
            run.shell.settings.mode = .csv
            #expect(try run.execute(".changes") == "change,object,keys\n")
        }
    }

    @Test func dryRunNeedsNoWriteAndLeavesNoManagerBehind() throws {
        let journal = try writeJournal("set Book/p1 price=2\n")
        let run = try UndoShellRun(write: false)
        #expect(try run.execute("replay --dry-run \(journal)").hasPrefix("group 1: set Book/p1 price=2\n      Book p1.price: 10 → 2\n"))
        #expect(run.shell.context?.undoManager == nil)
        #expect(run.shell.writeEnabled == false)
        #expect(throws: ShellError.self) { try run.execute("replay \(journal)") }
        #expect(throws: ShellError.self) { try run.execute("set Book/p1 price=2") }
    }

    @Test func malformedJournalsAreRefusedBeforeAnythingRuns() throws {
        for (text, line, message) in [
            ("begin\nset Book/p1 price=1\n", 1, "begin without end"), ("end\n", 1, "end without begin"),
            ("begin\nbegin\nend\nend\n", 2, "begin inside the group begun at line 1"), ("begin\nend x\n", 2, "end takes no arguments"),
        ] {
            let journal = try writeJournal(text)
            let run = try UndoShellRun()
            do {
                try run.execute("replay \(journal)")
                Issue.record("\(text) should be refused")
            } catch let error as ShellError {
                #expect(error.message == "\(journal):\(line): \(message)")
            }
            #expect(run.shell.context?.hasChanges == false)
        }
        let run = try UndoShellRun()
        #expect(throws: ShellError.self) { try run.execute("replay /nonexistent/journal") }
        #expect(throws: ShellError.self) { try run.execute("replay") }
    }

    private func writeJournal(_ text: String) throws -> String {
        let path = ScratchDirectory.path("graphstore-journal", extension: "journal")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
