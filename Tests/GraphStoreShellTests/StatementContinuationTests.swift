import Foundation
import Testing

@testable import GraphStore
@testable import GraphStoreShell

/// Statements that go on over lines, as psql and sqlite3 read SQL: bare SQL until its `;`,
/// a fetch after a line that asks for more, and in scripts when the next line starts with a
/// clause word. Every one-line statement reads as it did.
@Suite struct StatementContinuationTests {
    static let grammar = Shell(output: { _ in }, diagnostics: { _ in }).statementGrammar

    /// The statements a script's text reads as, with their first lines.
    static func statements(_ text: String) -> [StatementReader.Input] {
        var reader = StatementReader(source: TextLineSource(lines: [text], name: "s"), grammar: grammar)
        var found: [StatementReader.Input] = []
        while true {
            let input = reader.next(prompt: "", continuation: "")
            if input == .end { return found }
            found.append(input)
        }
    }

    /// The clause words come from the declarations: fetch's clauses and the predicate's
    /// joiners continue it; `select` does not (a line starting with SELECT is SQL).
    @Test func clauseWordsComeFromTheDeclarations() throws {
        let fetch = try #require(Self.grammar.continuation(of: "fetch"))
        #expect(fetch.nextLineWords == ["where", "group", "having", "sort", "limit", "offset", "and", "or", "&&", "||"])
        #expect(fetch.trailingWords.isSuperset(of: ["select", "where", "group", "by", "having", "sort", "limit", "offset", "and", "like"]))
        #expect(!fetch.trailingWords.contains("desc") && !fetch.trailingWords.contains("nocase"))
        #expect(Self.grammar.continuation(of: "COUNT")?.nextLineWords == ["where", "sort", "limit", "offset", "and", "or", "&&", "||"])
        #expect(Self.grammar.continuation(of: "validate")?.nextLineWords == ["where", "and", "or", "&&", "||"])
        #expect(Self.grammar.continuation(of: "explain")?.nextLineWords.contains("group") == true)
        #expect(Self.grammar.continuation(of: "sql") == StatementGrammar.sql)
        #expect(Self.grammar.continuation(of: ".print") == nil)
        #expect(Self.grammar.continuation(of: "insert") == nil)
    }

    /// So that no line that ran as a command before is read as a continuation now.
    @Test func noClauseWordIsACommand() {
        let shell = Shell(output: { _ in }, diagnostics: { _ in })
        for command in shell.commands {
            for name in [command.name] + command.aliases {
                let word = StatementGrammar.firstWord(of: name)
                for continuing in ["fetch", "count", "explain", "validate", "sql"] {
                    #expect(Self.grammar.continuation(of: continuing)?.nextLineWords.contains(word) != true || word.isEmpty, "\(name)")
                }
                #expect(!BareSQL.starts(name, nil) || name == "explain", "\(name) is SQL typed bare")
            }
        }
    }

    @Test func aLineAsksForMoreAfterAClauseWordAnOperatorOrAComma() {
        func check(_ text: String) -> InputCompleteness { InputCompleteness.check(text, grammar: Self.grammar) }
        #expect(check("fetch Book where") == .asksForMore)
        #expect(check("fetch Book where title ==") == .asksForMore)
        #expect(check("fetch Book where title BEGINSWITH[c]") == .asksForMore)
        #expect(check("fetch Book where price > 3 AND") == .asksForMore)
        #expect(check("fetch Book select title, count() group by") == .asksForMore)
        #expect(check("fetch Book sort title,") == .asksForMore)
        #expect(check("count Book limit") == .asksForMore)
        #expect(check("validate Book where") == .asksForMore)
        #expect(check("sql SELECT a, b,") == .asksForMore)
        #expect(check("sql SELECT * FROM ZBOOK WHERE") == .asksForMore)
        // Complete: a value ends it, a quote holds the word, a command that does not go on.
        #expect(check("fetch Book where title == 'where'") == .complete)
        #expect(check("fetch Book where title == \"a AND\"") == .complete)
        #expect(check("fetch Book sort title desc") == .complete)
        #expect(check("fetch Book where price > 3;") == .complete)
        #expect(check(".print where") == .complete)
        #expect(check(".print a,") == .complete)
        #expect(check("insert Book title=x,") == .complete)
        #expect(check("sql SELECT 1 -- from") == .complete)
        #expect(check("fetch") == .complete)
    }

    /// SQL typed bare goes on until its `;`, read as SQL (a `;` in a string is SQL).
    @Test func bareSQLGoesOnUntilItsSemicolon() {
        func check(_ text: String) -> InputCompleteness { InputCompleteness.check(text, grammar: Self.grammar) }
        #expect(check("select count(*) from ZBOOK") == .awaitsSemicolon)
        #expect(check("SELECT 1;") == .complete)
        #expect(check("select ';'") == .awaitsSemicolon)
        #expect(check("select 1 -- ;") == .awaitsSemicolon)
        #expect(check("select 1; .print x") == .complete)
        #expect(check("explain query plan select 1") == .awaitsSemicolon)
        #expect(check("with x as (select 1) select * from x") == .awaitsSemicolon)
        #expect(check("PRAGMA table_info(ZBOOK)") == .awaitsSemicolon)
        #expect(check("attach 'a.sqlite' as a") == .awaitsSemicolon)
        #expect(check("select") == .awaitsSemicolon)
        // The shell's explain, and commands that only start like SQL, end with their line.
        #expect(check("explain fetch Book") == .complete)
        #expect(check("explain count Book where") == .asksForMore)
        #expect(check("selection") == .complete)
        #expect(check("sql SELECT 1") == .complete)
    }

    /// The example: a clause word starting the next line of a script continues the
    /// fetch; the line after it, a command, is a statement of its own with its own number.
    @Test func aScriptLineStartingWithAClauseWordContinues() {
        #expect(Self.statements("fetch JournalEntry select location, count()\n group by location\n.print done") == [
            .statement("fetch JournalEntry select location, count()\n group by location", line: 1), .statement(".print done", line: 3),
        ])
        #expect(Self.statements("count Book where price > 3\n  AND title BEGINSWITH 'T'\n  or price < 1\nsort title\n.print x") == [
            .statement("count Book where price > 3\n  AND title BEGINSWITH 'T'\n  or price < 1\nsort title", line: 1), .statement(".print x", line: 5),
        ])
        #expect(Self.statements("sql SELECT count(*)\nFROM ZBOOK\nWHERE ZPRICE > 1\nsql SELECT 2") == [
            .statement("sql SELECT count(*)\nFROM ZBOOK\nWHERE ZPRICE > 1", line: 1), .statement("sql SELECT 2", line: 4),
        ])
        // A `;`, a blank line or a command that does not go on ends it.
        #expect(Self.statements("fetch Book;\nwhere x") == [.statement("fetch Book;", line: 1), .statement("where x", line: 2)])
        #expect(Self.statements("fetch Book\n\nsort title") == [.statement("fetch Book", line: 1), .statement("sort title", line: 3)])
        #expect(Self.statements(".print a\nwhere x") == [.statement(".print a", line: 1), .statement("where x", line: 2)])
        #expect(Self.statements("fetch Book where\n  price > 3\nlimit 2") == [.statement("fetch Book where\n  price > 3\nlimit 2", line: 1)])
    }

    @Test func bareSQLOverLinesRunsAtItsSemicolonOrAtTheEnd() {
        #expect(Self.statements("select count(*)\n  from ZBOOK\n  where ZPRICE > 1;\n.print x\nselect 1") == [
            .statement("select count(*)\n  from ZBOOK\n  where ZPRICE > 1;", line: 1), .statement(".print x", line: 4),
            .statement("select 1", line: 5),
        ])
    }

    /// Each `-c` command (each text given whole) ends its statement, unless a quote, a
    /// bracket or a backslash carries it on, as before.
    @Test func aCommandGivenWholeEndsItsStatement() {
        var reader = StatementReader(source: TextLineSource(lines: ["select 1", "fetch Book", "where x", ".print 'a", "b'"], name: "-c"), grammar: Self.grammar)
        var found: [StatementReader.Input] = []
        while case let input = reader.next(prompt: "", continuation: ""), input != .end { found.append(input) }
        #expect(found == [
            .statement("select 1", line: 1), .statement("fetch Book", line: 2), .statement("where x", line: 3), .statement(".print 'a\nb'", line: 4),
        ])
    }

    /// At a terminal nothing is read ahead: `fetch Book` runs when Enter is pressed; a line
    /// that asks for more, or bare SQL without its `;`, gets the continuation prompt.
    @Test func aTerminalShowsTheContinuationPromptAndNeverReadsAhead() {
        let terminal = ScriptedTerminal([.line("fetch Book"), .line("where price > 3")])
        var reader = StatementReader(source: terminal, grammar: Self.grammar)
        #expect(reader.next(prompt: "> ", continuation: "...> ") == .statement("fetch Book", line: 1))
        #expect(terminal.prompts == ["> "])
        let asking = ScriptedTerminal([.line("fetch Book where"), .line("price > 3"), .line("select 1"), .line("from ZBOOK;")])
        var other = StatementReader(source: asking, grammar: Self.grammar)
        #expect(other.next(prompt: "> ", continuation: "...> ") == .statement("fetch Book where\nprice > 3", line: 1))
        #expect(other.next(prompt: "> ", continuation: "...> ") == .statement("select 1\nfrom ZBOOK;", line: 3))
        #expect(asking.prompts == ["> ", "...> ", "> ", "...> "])
    }

    /// A program that sends one command and waits for its result is answered: a `;` at the
    /// end, or a command that does not go on, is run without a line read ahead.
    @Test func nothingIsReadAheadAfterASemicolonOrACommandThatDoesNotGoOn() {
        final class CountingSource: LineSource {
            var lines: [String]
            var reads = 0
            let name = "pipe"
            let isInteractive = false
            init(_ lines: [String]) { self.lines = lines }
            func read(prompt: String) -> LineInput {
                reads += 1
                return lines.isEmpty ? .end : .line(lines.removeFirst())
            }
        }
        for line in ["count Book;", ".print @@sync 1", "show Book/p1", "sql SELECT 1;", "select 1;"] {
            let source = CountingSource([line, "where never read"])
            var reader = StatementReader(source: source, grammar: Self.grammar)
            #expect(reader.next(prompt: "", continuation: "") == .statement(line, line: 1))
            #expect(source.reads == 1, "\(line)")
        }
    }

    /// The newcomer's session, run: the fetch over two lines groups; the error of a
    /// statement of several lines names the line of its offending token, with a caret.
    @Test func errorsNameTheLineAndColumnOfTheOffendingToken() throws {
        let harness = try ShellHarness()
        harness.shell.settings.mode = .csv
        #expect(harness.run(["fetch Book select category.name, count()\n  group by category.name\n  sort count() desc"]) == 0)
        #expect(harness.output == "category.name,count()\nFiction,2\nBiography,1\n")
        harness.clear()
        #expect(harness.run([".print one\nfetch Book\n  where nosuch == 1"]) == 1)
        #expect(harness.diagnostics == "test:3: entity Book has no key nosuch\n    where nosuch == 1\n          ^\n")
        harness.clear()
        #expect(harness.run(["count Book\n  where price >> 2"]) == 1)
        #expect(harness.diagnostics.hasPrefix("test:2: count: bad predicate at column 19: expected a comparison operator after '2'\n    where price >> 2\n"))
        harness.clear()
        #expect(harness.run(["select count(*)\n  from ZBOOK\n  where nope = 1;"]) == 1)
        #expect(harness.diagnostics == "test:3: SQLite error 1: no such column: nope, at column 9\n    where nope = 1;\n          ^\n")
        harness.clear()
        // One line: the message as before, on that line.
        #expect(harness.run(["count Book where nosuch == 1"]) == 1)
        #expect(harness.diagnostics == "test:1: entity Book has no key nosuch\n")
    }

    /// At a terminal, an error on a later line of a statement says which.
    @Test func aPersonIsToldTheLineOfTheStatement() throws {
        let harness = try ShellHarness()
        let terminal = ScriptedTerminal([.line("count Book where"), .line("  nosuch == 1")])
        _ = Session(shell: harness.shell, bail: false).run(terminal)
        #expect(harness.diagnostics == "error: line 2: entity Book has no key nosuch\n    nosuch == 1\n    ^\n")
    }

    /// A clause word mistyped is named, with the one meant.
    @Test func aMistypedClauseWordSaysWhichItIsCloseTo() throws {
        let harness = try ShellHarness()
        #expect(harness.run(["fetch Book wher title == 'x'"]) == 1)
        #expect(harness.diagnostics == "test:1: fetch: wher is no clause; did you mean where?\n")
        harness.clear()
        #expect(harness.run(["explain count Book srot title"]) == 1)
        #expect(harness.diagnostics == "test:1: explain count: srot is no clause; did you mean sort?\n")
        harness.clear()
        // Words close to no clause keep the usage error.
        #expect(harness.run(["fetch Book Page"]) == 1)
        #expect(harness.diagnostics.hasPrefix("test:1: usage: fetch ENTITY"))
    }

    /// SQL typed at the prompt without `sql` runs as sql does, reading only.
    @Test func bareSQLRunsAsSQLDoes() throws {
        let harness = try ShellHarness()
        harness.shell.settings.mode = .csv
        #expect(harness.run([
            "select count(*) as n from ZBOOK;", "SELECT Z_NAME\n  FROM Z_PRIMARYKEY\n  WHERE Z_ENT = 1;", "values (1), (2);",
            "with x(v) as (select 3) select v from x;", "pragma user_version;", "explain query plan select * from ZBOOK where Z_PK = 1;",
        ]) == 0)
        let lines = harness.output.split(separator: "\n").map(String.init)
        #expect(lines.prefix(8) == ["n", "3", "Z_NAME", "Book", "column1", "1", "2", "v"])
        #expect(harness.output.contains("SEARCH ZBOOK USING INTEGER PRIMARY KEY"))
        harness.clear()
        // Reading only, with --write too; the shell's explain is still the shell's.
        let writer = try ShellHarness(write: true)
        #expect(writer.run(["pragma journal_mode = delete;"]) == 1)
        #expect(writer.diagnostics.contains("only reading SQL may run: PRAGMA journal_mode = delete"))
        #expect(try writer.output(of: "explain count Book").contains("-- sql: SELECT COUNT("))
    }

    /// A command's MATCHES and LIKE share one budget: past it the command fails, naming the
    /// pattern with a caret under it; the next command has a budget of its own.
    @Test func aCommandStopsAtItsMatchBudget() throws {
        let harness = try ShellHarness(write: true)
        // One comparison with the long title takes 20,000 steps.
        harness.shell.matchBudgetSteps = 25_000
        let title = String(repeating: "a", count: 20_000)
        #expect(harness.run(["insert Book title=\"\(title)\"", "count Book where title LIKE '*x'"]) == 0)
        harness.clear()
        #expect(harness.run(["count Book where title LIKE '*a*b' OR title LIKE '*a*c'"]) == 1)
        #expect(harness.diagnostics == """
            test:1: LIKE '*a*c' went past the budget of one operation: 25000 steps of MATCHES and LIKE over all the strings compared (narrow the fetch with another condition, or simplify the pattern)
              count Book where title LIKE '*a*b' OR title LIKE '*a*c'
                                                                ^

            """)
        harness.clear()
        #expect(harness.run(["count Book where title LIKE '*x'"]) == 0)
    }
}
