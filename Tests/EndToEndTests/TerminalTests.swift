import Foundation
import TestScratch
import Testing

/// The real line editor on a pseudo-terminal: keys are typed, the screen is read back.
@Suite(.serialized) struct TerminalTests {
    /// The prompt as the screen shows it: lines are compared without trailing spaces.
    static let prompt = "BookStore>"
    var prompt: String { Self.prompt }

    /// A session on the example store with a history file of its own. No pager unless
    /// `environment` names one (`PAGER`): the tests do not depend on `less`.
    static func start(
        store: String = GraphStoreBinary.exampleStore, options: [String] = [], home: Scratch? = nil, columns: Int = 100, rows: Int = 40,
        colour: Bool = false, environment extra: [String: String] = [:]
    ) throws -> (PseudoTerminal, home: Scratch) {
        let home = try home ?? ScriptTests.home()
        var environment = ["HOME": home.path, "TERM": "xterm", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PAGER": ""]
        if !colour { environment["NO_COLOR"] = "1" }
        environment.merge(extra) { $1 }
        let terminal = try PseudoTerminal(arguments: options + [store], environment: environment, columns: columns, rows: rows)
        #expect(terminal.waitFor { $0.currentLine == prompt }, "no prompt: \(terminal.screen.text)")
        return (terminal, home)
    }

    // Keys are typed only once the prompt is back: typed ahead while a command runs, they
    // would meet the terminal in cooked mode (as they would for a person).

    @Test func bannerAndPrompt() throws {
        let (terminal, _) = try Self.start()
        #expect(terminal.screen.text[0].hasPrefix("graphstore "))
        #expect(terminal.screen.text.contains("Enter .help for commands, Ctrl-D to quit."))
        terminal.type("\u{4}")
        #expect(terminal.waitForExit() == 0)
    }

    @Test func tabCompletesEntityNamesAndListsChoices() throws {
        let (terminal, _) = try Self.start()
        terminal.type(".rows Bo\t")
        // Book and BookCategory share "Book".
        #expect(terminal.waitFor { $0.currentLine == prompt + " .rows Book" }, "\(terminal.screen.text)")
        terminal.type("\t")
        // Nothing more to insert: the second Tab lists the choices in columns.
        #expect(terminal.waitFor { $0.text.contains { $0.hasPrefix("Book ") && $0.hasSuffix(" BookCategory") } }, "\(terminal.screen.text)")
        #expect(terminal.waitFor { $0.currentLine == prompt + " .rows Book" })
        terminal.type("C\t")
        // The only candidate: completed, with a space after it (the cursor is past it).
        #expect(terminal.waitFor { $0.currentLine == prompt + " .rows BookCategory" && $0.column == 30 })
        terminal.type("\r")
        #expect(terminal.waitFor(text: "Biography"))
        #expect(terminal.waitFor { $0.currentLine == prompt })
        terminal.type(".quit\r")
        #expect(terminal.waitForExit() == 0)
    }

    @Test func typedUTF8IsReadAsCharacters() throws {
        let (terminal, _) = try Self.start()
        // Two-, three- and four-byte characters; Backspace takes one whole character back.
        terminal.type(".print café ✓ 𝄞!\u{7f}\r")
        #expect(terminal.waitFor { $0.text.contains("café ✓ 𝄞") }, "\(terminal.screen.text)")
        #expect(terminal.waitFor { $0.currentLine == prompt })
        terminal.type(".quit\r")
        #expect(terminal.waitForExit() == 0)
    }

    @Test func editrcTurnsOnViKeys() throws {
        let home = try ScriptTests.home()
        try "bind -v\n".write(toFile: home.path + "/.editrc", atomically: true, encoding: .utf8)
        let (terminal, _) = try Self.start(home: home)
        // Insert mode first; Escape, then vi's `x` deletes the character under the cursor
        // (the last one), and `A` appends at the end of the line again; Tab completes.
        terminal.type(".print viX")
        #expect(terminal.waitFor { $0.currentLine == prompt + " .print viX" })
        terminal.type("\u{1b}")
        terminal.type("x")
        #expect(terminal.waitFor { $0.currentLine == prompt + " .print vi" }, "\(terminal.screen.text)")
        terminal.type("A keys\r")
        #expect(terminal.waitFor(text: "vi keys"), "\(terminal.screen.text)")
        #expect(terminal.waitFor { $0.currentLine == prompt })
        // Tab still completes in vi's insert mode.
        terminal.type(".rows BookC\t")
        #expect(terminal.waitFor { $0.currentLine == prompt + " .rows BookCategory" }, "\(terminal.screen.text)")
        terminal.type("\r")
        #expect(terminal.waitFor(text: "Biography"))
        #expect(terminal.waitFor { $0.currentLine == prompt })
        terminal.type(".quit\r")
        #expect(terminal.waitForExit() == 0)
    }

    @Test func tabCompletesKeyPathsAndCommands() throws {
        let (terminal, _) = try Self.start()
        terminal.type(".sch\t")
        #expect(
            terminal.waitFor { $0.currentLine == prompt + " .schema" && $0.column == 19 },
            "\(terminal.screen.text) column \(terminal.screen.column) bytes \(String(decoding: terminal.bytes, as: UTF8.self).debugDescription)")
        terminal.type("Book.cat\t")
        #expect(terminal.waitFor { $0.currentLine == prompt + " .schema Book.category" }, "\(terminal.screen.text)")
        terminal.type("\r")
        // Wider than the terminal's 100 columns: records (\x auto, the default at a terminal).
        #expect(terminal.waitFor(text: "entity    | BookCategory"), "\(terminal.screen.text)")
        #expect(terminal.waitFor { $0.currentLine == prompt })
        terminal.type(".quit\r")
        #expect(terminal.waitForExit() == 0)
    }

    @Test func controlCCancelsTheLineAndUpArrowRecallsHistory() throws {
        let (terminal, home) = try Self.start()
        terminal.type(".print first\r")
        #expect(terminal.waitFor { $0.text.contains("first") && $0.currentLine == prompt })
        terminal.type(".print never")
        #expect(terminal.waitFor { $0.currentLine == prompt + " .print never" })
        let typedOn = terminal.screen.row
        terminal.type("\u{3}")
        // The line is dropped: a fresh prompt below it, and the text is never run.
        #expect(terminal.waitFor { $0.currentLine == prompt && $0.row > typedOn }, "\(terminal.screen.text)")
        terminal.type("\u{1b}[A")
        #expect(terminal.waitFor { $0.currentLine == prompt + " .print first" }, "\(terminal.screen.text)")
        terminal.type("\r")
        #expect(terminal.waitFor(text: "first", count: 4))
        #expect(terminal.waitFor { $0.currentLine == prompt })
        terminal.type("\u{4}")
        #expect(terminal.waitForExit() == 0)
        #expect(!terminal.screen.text.contains("never"), "\(terminal.screen.text)")
        let history = try String(contentsOfFile: home.path + "/.graphstore_history", encoding: .utf8)
        #expect(history.contains(".print\\040first"))
        #expect(!history.contains("never"))

        // The next session starts with that history.
        let (second, _) = try Self.start(home: home)
        second.type("\u{1b}[A")
        #expect(second.waitFor { $0.currentLine == prompt + " .print first" })
        second.type("\u{15}.quit\r")
        #expect(second.waitForExit() == 0)
    }

    @Test func unfinishedInputGetsTheContinuationPrompt() throws {
        let (terminal, _) = try Self.start()
        terminal.type(".print 'one\r")
        #expect(terminal.waitFor { $0.currentLine == "      ...>" }, "\(terminal.screen.text)")
        terminal.type("two'\r")
        #expect(terminal.waitFor { $0.text.suffix(4).elementsEqual(["      ...> two'", "one", "two", prompt]) }, "\(terminal.screen.text)")
        terminal.type(".quit\r")
        #expect(terminal.waitForExit() == 0)
    }

    /// SQL typed bare goes on until its `;`, a fetch after a line that asks for more: each
    /// next line gets the continuation prompt, and the statement runs once complete.
    @Test func statementsGoOnOverLinesAtThePrompt() throws {
        let (terminal, _) = try Self.start(options: ["--list", "--no-headers"])
        terminal.type("select count(*)\r")
        #expect(terminal.waitFor { $0.currentLine == "      ...>" }, "\(terminal.screen.text)")
        terminal.type("from ZBOOK;\r")
        #expect(terminal.waitFor { $0.text.suffix(3).elementsEqual(["      ...> from ZBOOK;", "3", prompt]) }, "\(terminal.screen.text)")
        terminal.type("count Book where\r")
        #expect(terminal.waitFor { $0.currentLine == "      ...>" }, "\(terminal.screen.text)")
        terminal.type("price < 12\r")
        #expect(terminal.waitFor { $0.text.suffix(3).elementsEqual(["      ...> price < 12", "2", prompt]) }, "\(terminal.screen.text)")
        terminal.type(".quit\r")
        #expect(terminal.waitForExit() == 0)
    }

    /// Leaving with unsaved changes asks once: cancel stays, discard leaves.
    @Test func leavingWithUnsavedChangesAsksOnce() throws {
        let store = try GraphStoreBinary.copy(GraphStoreBinary.exampleStore)
        let (terminal, _) = try Self.start(store: store, options: ["--write"])
        terminal.type("insert Book title=Draft\r")
        #expect(terminal.waitFor { $0.currentLine == "BookStore*>" }, "\(terminal.screen.text)")
        let question = "1 unsaved change (1 inserted): save, discard, or cancel? [s/d/C]"
        terminal.type("\u{4}")
        #expect(terminal.waitFor { $0.currentLine == question }, "\(terminal.screen.text)")
        terminal.type("c\r")
        #expect(terminal.waitFor { $0.currentLine == "BookStore*>" }, "\(terminal.screen.text)")
        terminal.type(".quit\r")
        #expect(terminal.waitFor { $0.currentLine == question }, "\(terminal.screen.text)")
        terminal.type("d\r")
        #expect(terminal.waitForExit() == 0)
        let rows = try GraphStoreBinary.run([store, "count Book"])
        #expect(rows.stdout.contains("| 3     |"), "discarded: nothing was saved")
    }

    @Test func errorsAtThePromptDoNotEndTheSession() throws {
        let (terminal, _) = try Self.start()
        terminal.type(".rows Nope\r")
        #expect(terminal.waitFor(text: "error: no entity or table named Nope"))
        terminal.type(".print alive\r")
        #expect(terminal.waitFor { $0.text.contains("alive") && $0.currentLine == prompt })
        terminal.type("\u{4}")
        #expect(terminal.waitForExit() == 0)
    }

    @Test func controlCInterruptsALongFetch() throws {
        let (terminal, _) = try Self.start(store: LargeStore.path)
        terminal.type(".rows Book\r")
        #expect(terminal.waitFor(text: "Book number 100"))
        // Stop reading: the program soon blocks writing to the terminal, mid-result.
        terminal.type("\u{3}")
        #expect(terminal.waitFor(text: "error: interrupted"), "\(terminal.screen.text.suffix(5))")
        #expect(terminal.waitFor { $0.currentLine == prompt })
        #expect(!terminal.screen.text.contains { $0.contains("Book number \(LargeStore.bookCount + 3)") })
        // The store still answers.
        terminal.type(".rows BookCategory\r")
        #expect(terminal.waitFor(text: "Biography"))
        #expect(terminal.waitFor { $0.currentLine == prompt })
        terminal.type(".quit\r")
        #expect(terminal.waitForExit() == 0)
    }

    /// `.read` of a FIFO waits for its writer and for the writer's lines; Ctrl-C ends either
    /// wait as it ends a long fetch: the script fails with `interrupted`, the prompt returns.
    @Test func controlCInterruptsAScriptWaitingOnAFIFO() throws {
        let fifo = try ScratchDirectory.make("terminal-fifo").path + "/script.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let (terminal, _) = try Self.start(columns: 250)
        // No writer at all: graphstore has the FIFO open and waits for one.
        terminal.type(".read \(fifo)\r")
        #expect(eventually { process(terminal.pid, hasOpen: fifo) }, "the FIFO was never opened")
        kill(terminal.pid, SIGINT)
        #expect(terminal.waitFor(text: "\(fifo):1: interrupted"), "\(terminal.screen.text.suffix(5))")
        #expect(terminal.waitFor { $0.currentLine == prompt })
        // A writer that writes nothing; Ctrl-C typed at the terminal this time.
        terminal.type(".read \(fifo)\r")
        let writer = openWritingEnd(of: fifo)
        #expect(writer >= 0, "the FIFO was never opened again")
        defer { close(writer) }
        terminal.type("\u{3}")
        #expect(terminal.waitFor(text: "\(fifo):1: interrupted", count: 2), "\(terminal.screen.text.suffix(5))")
        #expect(terminal.waitFor { $0.currentLine == prompt })
        terminal.type(".print alive\r")
        #expect(terminal.waitFor { $0.text.contains("alive") && $0.currentLine == prompt })
        terminal.type(".quit\r")
        #expect(terminal.waitForExit() == 0, "\(terminal.screen.text)")
    }

    /// With `\x off` (at a terminal `auto` shows such rows as records), a table is fitted.
    @Test func tablesFitTheTerminalAndColourFollowsNoColor() throws {
        let (narrow, _) = try Self.start(columns: 60, colour: true)
        narrow.type("\\x off\r")
        #expect(narrow.waitFor(text: "expanded display is off"))
        #expect(narrow.waitFor { $0.currentLine == prompt })
        narrow.type(".schema Book\r")
        #expect(narrow.waitFor(text: "| Book "))
        #expect(narrow.waitFor { $0.currentLine == prompt })
        let table = narrow.screen.text.filter { $0.hasPrefix("|") || $0.hasPrefix("+") }
        #expect(!table.isEmpty)
        #expect(table.allSatisfy { $0.count <= 60 }, "\(table)")
        #expect(table.contains { $0.contains("…") })
        #expect(String(decoding: narrow.bytes, as: UTF8.self).contains("\u{1b}[1mentity\u{1b}[0m"))
        narrow.type(".quit\r")
        #expect(narrow.waitForExit() == 0)

        let (plain, _) = try Self.start(colour: false)
        plain.type(".entities\r")
        #expect(plain.waitFor(text: "ZBOOKCATEGORY"))
        #expect(plain.waitFor { $0.currentLine == prompt })
        plain.type(".quit\r")
        #expect(plain.waitForExit() == 0)
        #expect(!String(decoding: plain.bytes, as: UTF8.self).contains("\u{1b}[1m"))
    }
}
