import Foundation
import Testing

@testable import GraphStore
@testable import GraphStoreShell

/// Sessions: scripts, bail, diagnostics, prompts, redirection, parameters.
@Suite struct SessionTests {
    @Test func scriptErrorsAreFileLineMessageOnDiagnostics() throws {
        let harness = try ShellHarness()
        let status = harness.run([".mode csv", "", ".rows Nope", ".print after"], bail: false, name: "checks.graphstore")
        #expect(status == ExitStatus.commandFailed)
        #expect(harness.diagnostics == "checks.graphstore:3: no entity or table named Nope; entities: Book, BookCategory, Page; other tables: Z_METADATA, Z_PRIMARYKEY\n")
        #expect(harness.output == "after\n")
    }

    @Test func bailStopsAtTheFirstError() throws {
        let harness = try ShellHarness()
        #expect(harness.run([".rows Nope", ".print after"], bail: true) == ExitStatus.commandFailed)
        #expect(harness.output.isEmpty)
        harness.clear()
        #expect(harness.run([".bail off", ".rows Nope", ".print after"], bail: true) == ExitStatus.commandFailed)
        #expect(harness.output == "after\n")
    }

    @Test func unknownCommandsAndBadArgumentsFail() throws {
        let harness = try ShellHarness()
        #expect(harness.run([".bogus"]) == 1)
        #expect(harness.diagnostics.contains("test:1: unknown command .bogus"))
        harness.clear()
        #expect(harness.run([".mode fancy"]) == 1)
        #expect(harness.diagnostics.contains("no output mode fancy"))
        harness.clear()
        #expect(harness.run([".headers maybe"]) == 1)
        #expect(harness.run([".quit 300"]) == 1)
        #expect(harness.run([".nullvalue"]) == 1)
    }

    /// A dot-command may be shortened to a prefix only it has, as in sqlite3; an unknown
    /// command, entity or key is answered with the names it is close to.
    @Test func prefixesAndSuggestions() throws {
        let harness = try ShellHarness(write: true)
        #expect(try harness.output(of: ".ent").contains("| BookCategory | ZBOOKCATEGORY |"))
        #expect(harness.run([".head off; .mode csv; .row BookCategory 1"]) == 0)
        #expect(harness.output.hasSuffix("1,2,1,Fiction\n"))
        let failures: [(String, String)] = [
            (".s", "ambiguous command .s: .schema, .sql, .separator, .settings"),
            (".entites", "unknown command .entites; did you mean .entities?"),
            (".mod", "ambiguous command .mod: .model, .mode"),
            ("fecth Book", "unknown command fecth; did you mean fetch?"),
            (".bogus", "unknown command .bogus; .help lists the commands"),
            (".rows Bok", "no entity or table named Bok; did you mean Book?"),
            ("count bok", "no entity named bok; did you mean Book?"),
            ("fetch Book where titel == 'x'", "entity Book has no key titel; did you mean title?"),
            ("count Book where Title == 'x'", "entity Book has no key Title; did you mean title?"),
            ("fetch Book sort categry.name", "entity Book has no key categry (in categry.name); did you mean category?"),
            ("set Book/p1 Price=3", "Book has no attribute Price; did you mean price?"),
            (".schema Book.categry", "Book has no relationship categry; did you mean category?"),
            (".mode jsn", "no output mode jsn; did you mean json?"),
        ]
        for (line, message) in failures {
            #expect(throws: (any Error).self) { try harness.shell.execute(line) }
            do { try harness.shell.execute(line) } catch { #expect(harness.shell.describe(error).message == message, "\(line)") }
        }
    }

    @Test func exitSetsTheStatusAndStopsEverything() throws {
        let harness = try ShellHarness()
        #expect(harness.run([".exit 3", ".print not reached"]) == 3)
        #expect(harness.output.isEmpty)
        #expect(harness.shell.shouldQuit)
    }

    @Test func interactiveErrorsDoNotEndOrFailTheSession() throws {
        let harness = try ShellHarness()
        let terminal = ScriptedTerminal([.line(".rows Nope"), .line(".print still here")])
        let status = Session(shell: harness.shell, bail: true).run(terminal)
        #expect(status == 0)
        #expect(harness.diagnostics == "error: no entity or table named Nope; entities: Book, BookCategory, Page; other tables: Z_METADATA, Z_PRIMARYKEY\n")
        #expect(harness.output == "still here\n")
        #expect(terminal.remembered == [".rows Nope", ".print still here"])
        #expect(terminal.finished)
    }

    @Test func promptShowsTheStoreAndUnsavedChanges() throws {
        let harness = try ShellHarness()
        let session = Session(shell: harness.shell, bail: false)
        #expect(session.prompt() == "BookStore> ")
        #expect(session.continuationPrompt() == "      ...> ")
        _ = try #require(harness.shell.context).insert("Book")
        #expect(session.prompt() == "BookStore*> ")
        #expect(Session(shell: try ShellHarness(openBookStore: false).shell, bail: false).prompt() == "graphstore> ")
    }

    @Test func endOfInputAsksBeforeDiscardingChanges() throws {
        let harness = try ShellHarness()
        _ = try #require(harness.shell.context).insert("Book")
        // First Ctrl-D: cancelled (Enter), the session goes on; the second: discard.
        let terminal = ScriptedTerminal([.end, .line(".print kept"), .end], answers: ["", "d"])
        let status = Session(shell: harness.shell, bail: false).run(terminal)
        #expect(status == 0)
        #expect(terminal.questions == Array(repeating: "1 unsaved change (1 inserted): save, discard, or cancel? [s/d/C] ", count: 2))
        #expect(harness.output == "kept\n")
        // Without changes nothing is asked.
        let clean = try ShellHarness()
        let quiet = ScriptedTerminal([.end])
        _ = Session(shell: clean.shell, bail: false).run(quiet)
        #expect(quiet.questions.isEmpty)
    }

    /// `.quit`, `.exit N` and `\q` ask as Ctrl-D does; staying takes back the exit status.
    @Test func quitAsksOnceAndCancelStays() throws {
        let harness = try ShellHarness(write: true)
        let terminal = ScriptedTerminal(
            [.line("insert Book title=Kept"), .line(".exit 3"), .line(".print still here"), .line("\\q")], answers: ["c", nil])
        let status = Session(shell: harness.shell, bail: false).run(terminal)
        #expect(terminal.questions.count == 2)
        #expect(terminal.questions[0].hasPrefix("1 unsaved change (1 inserted): save, discard, or cancel?"))
        #expect(harness.output.contains("still here"))
        // Ctrl-D at the question discards; the .exit 3 that was cancelled counts no more.
        #expect(status == 0)
        #expect(harness.shell.context?.hasChanges == true, "discarding leaves the changes unsaved")
    }

    @Test func answeringSaveSavesBeforeLeaving() throws {
        let harness = try ShellHarness(write: true)
        let terminal = ScriptedTerminal([.line("insert Book title=Saved"), .line(".quit"), .line(".print not reached")], answers: ["save"])
        #expect(Session(shell: harness.shell, bail: false).run(terminal) == 0)
        #expect(harness.output.contains("saved: 1 inserted"))
        #expect(!harness.output.contains("not reached"))
        #expect(harness.shell.context?.hasChanges == false)
        #expect(try harness.shell.requireStore().count(of: try harness.shell.mapping("Book")) == 4)
    }

    /// `.open --write` and `.open --readonly` switch stores as on the command line; with
    /// neither the store opens as graphstore started; unsaved changes are never dropped.
    @Test func openSwitchesBetweenWritingAndReadOnly() throws {
        let harness = try ShellHarness()
        let store = harness.directory + "/examples/BookStore/BookStore.sqlite"
        #expect(harness.run([".open --write \(store)", "insert Book title=Written"]) == 0)
        #expect(harness.shell.store?.isReadOnly == false)
        // Unsaved changes stop another .open.
        #expect(harness.run([".open --readonly \(store)"]) == 1)
        #expect(harness.diagnostics.contains(".open: 1 unsaved change (1 inserted) in the open store; save or rollback first"))
        #expect(harness.shell.context?.hasChanges == true)
        harness.clear()
        #expect(harness.run(["save", ".open --readonly \(store)"]) == 0)
        #expect(harness.shell.store?.isReadOnly == true)
        #expect(harness.run(["insert Book title=Refused"]) == 1)
        #expect(harness.run([".open \(store)"]) == 0)
        #expect(harness.shell.store?.isReadOnly == true, "started read-only")
        #expect(harness.run([".open --write --readonly \(store)"]) == 1)
        // A store that cannot be opened leaves the access as it was.
        #expect(harness.run([".open --write \(harness.directory)/missing.sqlite"]) == 4)
        #expect(!harness.shell.writeEnabled)
        let writer = try ShellHarness(write: true)
        #expect(writer.run([".open --readonly \(store)", ".open \(store)"]) == 0)
        #expect(writer.shell.store?.isReadOnly == false, "started with --write")
    }

    @Test func changesListsAndSummarises() throws {
        let harness = try ShellHarness()
        let context = try #require(harness.shell.context)
        let book = try context.insert("Book")
        try book.set("title", "Dune")
        #expect(try harness.output(of: ".mode csv") == "")
        let changes = try harness.output(of: ".changes")
        #expect(changes == "change,object,keys\ninserted,Book/t1,title\n")
        harness.shell.options.changes = true
        try harness.shell.runStatement(".print no change")
        #expect(harness.diagnostics.isEmpty)
        harness.shell.add(ShellCommand("touch", summary: "", example: "touch") { shell, _ in
            _ = try shell.requireContext().insert("Page")
        })
        try harness.shell.runStatement("touch")
        #expect(harness.diagnostics == "changes: 2 unsaved changes (2 inserted)\n")
    }

    @Test func echoAndTimer() throws {
        let harness = try ShellHarness()
        harness.run([".echo on", ".print hi", ".timer on", ".print timed"])
        #expect(harness.output == ".print hi\nhi\n.timer on\n.print timed\ntimed\n")
        // `.timer on` itself is not timed: the timer was off when it started.
        let timings = harness.diagnostics.split(separator: "\n")
        #expect(timings.count == 1)
        #expect(timings.allSatisfy { $0.range(of: #"^time: real \d+\.\d{3}s user \d+\.\d{3}s sys \d+\.\d{3}s$"#, options: .regularExpression) != nil })
    }

    @Test func outputAndOnceRedirect() throws {
        let harness = try ShellHarness()
        harness.run([".mode csv", ".once one.csv", ".rows BookCategory", ".print to screen", ".output all.csv", ".print a", ".print b", ".output", ".print back"])
        #expect(harness.output == "to screen\nback\n")
        #expect(try String(contentsOfFile: harness.directory + "/one.csv", encoding: .utf8) == "Z_PK,Z_ENT,Z_OPT,ZNAME\n1,2,1,Fiction\n2,2,1,Biography\n")
        #expect(try String(contentsOfFile: harness.directory + "/all.csv", encoding: .utf8) == "a\nb\n")
        #expect(harness.run([".output /nonexistent/dir/x"]) == 1)
        #expect(harness.diagnostics.contains("cannot write /nonexistent/dir/x: No such file or directory"))
    }

    @Test func readRunsScriptsAndReportsTheirLines() throws {
        let harness = try ShellHarness()
        try ".print one\n.rows Nope\n.print three\n".write(toFile: harness.directory + "/inner.graphstore", atomically: true, encoding: .utf8)
        try ".read inner.graphstore\n.print outer\n".write(toFile: harness.directory + "/outer.graphstore", atomically: true, encoding: .utf8)
        // Bail: the inner script stops, and so does the outer one, with one message.
        #expect(harness.run([".read outer.graphstore"], bail: true) == 1)
        #expect(harness.output == "one\n")
        #expect(harness.diagnostics == "inner.graphstore:2: no entity or table named Nope; entities: Book, BookCategory, Page; other tables: Z_METADATA, Z_PRIMARYKEY\n")
        harness.clear()
        #expect(harness.run([".read outer.graphstore"], bail: false) == 1)
        #expect(harness.output == "one\nthree\nouter\n")
        harness.clear()
        #expect(harness.run([".read missing.graphstore"]) == 1)
        #expect(harness.diagnostics == "test:1: cannot read missing.graphstore: No such file or directory\n")
    }

    @Test func scriptsThatReadThemselvesStop() throws {
        let harness = try ShellHarness()
        try ".read loop.graphstore\n".write(toFile: harness.directory + "/loop.graphstore", atomically: true, encoding: .utf8)
        #expect(harness.run([".read loop.graphstore"]) == 1)
        #expect(harness.diagnostics.contains("nested more than 16 deep"))
    }

    @Test func parameters() throws {
        let harness = try ShellHarness()
        harness.run([
            ".parameter set minPrice 12", ".parameter set title 'The Hobbit'", ".parameter set since 2024-05-01",
            ".parameter set code '10'", ".parameter set word Dune", ".parameter set $flag TRUE", ".mode csv", ".parameter list",
        ])
        #expect(
            harness.output == #"""
                name,value,given_as
                $minPrice,12,12
                $title,"""The Hobbit""",'The Hobbit'
                $since,"CAST(736214400.000000, ""NSDate"")",2024-05-01
                $code,"""10""",'10'
                $word,"""Dune""",Dune
                $flag,1,TRUE

                """#)
        let bindings = harness.shell.parameters.bindings
        #expect(bindings["minPrice"]?.attributeValue == .integer(12))
        #expect(bindings["code"]?.attributeValue == .string("10"))
        #expect(bindings["since"]?.attributeValue == .date(Date(timeIntervalSince1970: 1_714_521_600)))
        // The bindings substitute into predicates.
        let predicate = try ObjectPredicate(format: "price >= $minPrice").withSubstitutionVariables(bindings)
        #expect(predicate.predicateFormat == "price >= 12")
        // fetch and count substitute them.
        harness.clear()
        harness.run([".parameter set minPrice 12", ".mode csv", "count Book where price >= $minPrice", "fetch Book where price < $minPrice sort title"])
        #expect(harness.output == "count\n1\nobject,price,title,category\nBook/p1,10,The first book,BookCategory/p1\nBook/p3,10,The third book,BookCategory/p2\n")
        #expect(harness.diagnostics.isEmpty, "\(harness.diagnostics)")
        #expect(harness.run(["count Book where price > $unbound"]) == 1)
        #expect(harness.run([".parameter unset nope"]) == 1)
        #expect(harness.run([".parameter set 1x 2"]) == 1)
        harness.run([".parameter clear"])
        #expect(harness.shell.parameters.all.isEmpty)
    }

    /// `.help` lists every command, its summary wrapped under it within 78 columns (a
    /// summary was once one line of up to 200 columns), then how commands are typed.
    @Test func helpListsEveryCommandWrappedAndDetailsOne() throws {
        let harness = try ShellHarness()
        let listing = try harness.output(of: ".help")
        let lines = listing.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
        for line in listing.split(separator: "\n") { #expect(line.count <= 78, "\(line)") }
        // A command's first line starts with its usage; the summary's further lines are indented.
        let entries = lines.reduce(into: [String]()) { entries, line in
            if line.first == " ", !entries.isEmpty {
                entries[entries.count - 1] += " " + line.trimmingCharacters(in: .whitespaces)
            } else {
                entries.append(String(line))
            }
        }
        #expect(entries.count == harness.shell.commands.count)
        #expect(listing.hasSuffix(TextWrapping.wrap(HelpCommand.typing)) && HelpCommand.typing.contains("A ; ends a command"))
        for (entry, command) in zip(entries, harness.shell.commands) {
            #expect(entry.hasPrefix(command.usage) && entry.contains(command.summary), "\(command.name)")
        }
        let one = try harness.output(of: ".help rows")
        #expect(one.hasPrefix("usage: .rows ENTITY|TABLE [LIMIT]\n"))
        #expect(one.hasSuffix("example: .rows Book 10\n"))
        #expect(try harness.output(of: ".help .mode").contains("jsonl: one JSON object per line"))
        #expect(harness.run([".help nothing"]) == 1)
    }

    /// `.help .mode` lists every mode with the summary the manual uses.
    @Test func modeHelpListsEveryMode() {
        for mode in OutputMode.allCases {
            #expect(ModeCommand.command.details.contains("\(mode.rawValue): \(mode.summary)\n"), "\(mode)")
        }
    }

    @Test func showReportsSettings() throws {
        let harness = try ShellHarness()
        harness.run([".mode jsonl", ".nullvalue -", ".timer on", ".settings"])
        #expect(harness.output.contains(#"{"setting":"mode","value":"jsonl"}"#))
        #expect(harness.output.contains(#"{"setting":"nullvalue","value":"'-'"}"#))
        #expect(harness.output.contains(#"{"setting":"timer","value":"on"}"#))
        #expect(harness.output.contains(#"{"setting":"access","value":"read-only"}"#))
    }

    @Test func writeCommandsNeedWrite() throws {
        let harness = try ShellHarness()
        harness.shell.add(ShellCommand("change", summary: "", example: "change", writes: true) { _, _ in })
        #expect(harness.run(["change"]) == 1)
        #expect(harness.diagnostics.contains("change changes data; open the store with --write to allow it"))
    }

    @Test func schemaFollowsKeyPaths() throws {
        let harness = try ShellHarness()
        harness.run([".mode csv", ".headers off", ".schema Book.category"])
        #expect(harness.output.hasPrefix("BookCategory,name,attribute,String"))
        #expect(harness.run([".schema Book.nope"]) == 1)
        #expect(harness.diagnostics.contains("Book has no relationship nope; relationships: category, pages"))
    }

    /// The shell's own interruption flag stands in for Ctrl-C (the process-wide one would
    /// stop the tests running beside this one; `TerminalTests` presses Ctrl-C for real).
    @Test func interruptedCommandsSayInterrupted() throws {
        let harness = try ShellHarness()
        harness.shell.isInterrupted = { false }
        harness.shell.add(ShellCommand("spin", summary: "", example: "spin") { shell, _ in
            shell.emit(columns: ["n"]) { sink in
                for i in 0..<10 {
                    if i == 3 { shell.isInterrupted = { true } }
                    sink.row([.value(.integer(Int64(i)))])
                }
            }
        })
        #expect(harness.run([".mode csv", "spin"]) == 1)
        #expect(harness.output == "n\n0\n1\n2\n")
        #expect(harness.diagnostics == "test:2: interrupted\n")
    }

    /// A MATCHES stopped by the store's interrupter says so as SQLite's interruption does.
    @Test func anInterruptedMatchSaysInterrupted() throws {
        let harness = try ShellHarness()
        harness.shell.isInterrupted = { false }
        harness.shell.add(ShellCommand("match", summary: "", example: "match") { _, _ in
            throw RegexMatchError(pattern: "(a+)+b", reason: .interrupted)
        })
        #expect(harness.run(["match"]) == 1)
        #expect(harness.diagnostics == "test:1: interrupted\n")
    }
}
