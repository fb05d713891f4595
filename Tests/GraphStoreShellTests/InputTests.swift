import Foundation
import Testing

@testable import GraphStoreShell
import TestScratch

/// Reading statements: continuation lines, line numbers, files.
@Suite struct InputTests {
    @Test func completeness() {
        #expect(InputCompleteness.check(".rows Book") == .complete)
        #expect(InputCompleteness.check("fetch Book where title == 'Du") == .open)
        #expect(InputCompleteness.check("fetch Book where (price > 3") == .open)
        #expect(InputCompleteness.check("fetch Book where title == \"it's\"") == .complete)
        #expect(InputCompleteness.check(".print a \\") == .continuedByBackslash)
        #expect(InputCompleteness.check("-- it's a comment (") == .complete)
        #expect(InputCompleteness.check("fetch Book where title == 'a\\'b'") == .complete)
        // A square bracket left open continues the statement too.
        #expect(InputCompleteness.check("fetch Book where title BEGINSWITH[c") == .open)
        #expect(InputCompleteness.check("fetch Book where pages[SIZE] > 2") == .complete)
    }

    /// `;` ends a command, outside quotes and brackets; a comment is one command to its end.
    @Test func semicolonsSeparateCommands() {
        func commands(_ text: String) -> [String] { CommandSeparator.commands(in: text).map { $0.trimmingWhitespace() } }
        #expect(commands("count Book;") == ["count Book"])
        #expect(commands(".mode csv; .rows Book 1;; .print done") == [".mode csv", ".rows Book 1", ".print done"])
        #expect(commands(".print 'a; b'; .print \"c;d\"") == [".print 'a; b'", ".print \"c;d\""])
        #expect(commands("fetch Book where title IN {'x;', \"y;\"} AND (price > 1); count Book") == [
            "fetch Book where title IN {'x;', \"y;\"} AND (price > 1)", "count Book",
        ])
        #expect(commands("-- a note; not a command") == ["-- a note; not a command"])
        #expect(commands("count Book; -- the books; all of them") == ["count Book", "-- the books; all of them"])
        // `#` starts a comment only where a command starts (`#limit` is a key).
        #expect(commands("fetch Book where #limit > 1; count Book") == ["fetch Book where #limit > 1", "count Book"])
        #expect(commands(" ; ").isEmpty)
    }

    /// The text of `sql` is SQL: a `;` in an SQL comment or string does not end the command,
    /// and SQL quotes have no backslash escapes (as sqlite3 reads them).
    @Test func sqlTextKeepsItsCommentsAndStrings() {
        func commands(_ text: String) -> [String] { CommandSeparator.commands(in: text).map { $0.trimmingWhitespace() } }
        #expect(commands("sql SELECT 1 -- ; delete Book/p1") == ["sql SELECT 1 -- ; delete Book/p1"])
        #expect(commands("sql SELECT 1 /* ; delete Book/p1 */; count Book") == ["sql SELECT 1 /* ; delete Book/p1 */", "count Book"])
        #expect(commands("SQL SELECT 'it''s; x', \"a;b\", [c;d], `e;f`; count Book") == [
            "SQL SELECT 'it''s; x', \"a;b\", [c;d], `e;f`", "count Book",
        ])
        // A backslash escapes nothing in SQL: the string ends at the second quote.
        #expect(commands(".sql SELECT 'a\\'; count Book") == [".sql SELECT 'a\\'", "count Book"])
        #expect(commands(".sq SELECT 1 -- a ; b\n; count Book") == [".sq SELECT 1 -- a ; b", "count Book"])
        // A `--` comment ends with its line; what follows on the next line is SQL again.
        #expect(commands("sql SELECT 1 -- x\n; count Book") == ["sql SELECT 1 -- x", "count Book"])
        // Only the command's first word makes it SQL.
        #expect(commands(".print sql -- x; count Book") == [".print sql -- x", "count Book"])
        #expect(commands("count Book; sql SELECT 1 -- ; .print no") == ["count Book", "sql SELECT 1 -- ; .print no"])
        #expect(commands("sqlx 'a;b' -- ; c") == ["sqlx 'a;b' --", "c"])
        #expect(InputCompleteness.check("sql SELECT 1 -- it's") == .complete)
        #expect(InputCompleteness.check("sql SELECT 'a\\'") == .complete)
        #expect(InputCompleteness.check("sql SELECT 1 /* open") == .open)
        #expect(InputCompleteness.check("sql SELECT 'it''s") == .open)
        #expect(InputCompleteness.check(".mode csv; # it's a note") == .complete)
    }

    /// `sql SELECT 1 -- ; delete Book/p1` runs one read-only statement and deletes nothing.
    @Test func aSemicolonInAnSQLCommentDoesNotRunACommand() throws {
        let harness = try ShellHarness(write: true)
        #expect(harness.run([".mode csv", "sql SELECT count(*) AS n FROM ZBOOK -- ; delete Book/p1", "count Book"]) == 0)
        #expect(harness.output == "n\n3\ncount\n3\n")
    }

    /// The commands of a line run in turn, each as at the prompt; a failing one stops a
    /// bailing script there.
    @Test func commandsOnOneLineRunInTurn() throws {
        let harness = try ShellHarness()
        #expect(harness.run([".mode csv; .rows BookCategory 1; .print 'a; b';", "count Book;"]) == 0)
        #expect(harness.output == "Z_PK,Z_ENT,Z_OPT,ZNAME\n1,2,1,Fiction\na; b\ncount\n3\n")
        harness.clear()
        #expect(harness.run([".print one; .rows Nope; .print not reached", ".print nor this"]) == 1)
        #expect(harness.output == "one\n")
        #expect(harness.diagnostics.hasPrefix("test:1: no entity or table named Nope"))
        harness.clear()
        // A predicate's `;` in quotes is the predicate's.
        #expect(harness.run(["count Book where title == 'a;b' OR title BEGINSWITH 'The';"]) == 0)
        #expect(harness.output == "count\n3\n")
    }

    @Test func quotesHideSyntax() {
        var state = QuoteState()
        let outside = String(String.UnicodeScalarView(#"a "b(\" )" 'c' d"#.unicodeScalars.filter { state.advance($0) }))
        #expect(outside == "a   d")
        #expect(!state.isInsideQuotes)
        #expect(!state.advance("'") && state.isInsideQuotes)
    }

    /// Quotes are found by Unicode scalar, as the predicate lexer reads them: a combining
    /// mark drawn on a closing quote does not keep it open.
    @Test func aCombiningMarkAfterAClosingQuoteDoesNotHideIt() throws {
        #expect(InputCompleteness.check("fetch Book where title == \"cafe\"\u{301}") == .complete)
        #expect(InputCompleteness.check("fetch Book where title == 'cafe'\u{301} AND (x") == .open)
        #expect(InputCompleteness.check("fetch Book where title == \"cafe\u{301}") == .open)
        #expect(try CommandLineSplitter.words("\"a\"\u{301} b") == ["a\u{301}", "b"])
        #expect(try CommandLineSplitter.words("'👨‍👩‍👧' \"e\u{301}\"") == ["👨‍👩‍👧", "e\u{301}"])
        #expect(try Assignment.parse("title=\"caf\u{E9}\" note='e\u{301}'").map(\.text) == ["caf\u{E9}", "e\u{301}"])
        #expect(throws: ShellError.self) { try Assignment.parse("title=\"cafe\"\u{301}") }
        do {
            _ = try Assignment.parse("title=\"cafe\"\u{301}")
        } catch {
            #expect(error.message == "title: put a space after the closing quote")
        }
        #expect(LineWords("fetch Book where t == \"a\"\u{301} AND ti").partial == "ti")
    }

    @Test func statementsSpanLinesAndKeepTheirFirstLineNumber() {
        let source = TextLineSource(lines: ["", ".print 'a", "b'", ".print c \\", "d", "(", ".print e"], name: "s")
        var reader = StatementReader(source: source)
        var prompts: [String] = []
        var statements: [StatementReader.Input] = []
        while true {
            let input = reader.next(prompt: "> ", continuation: "...> ")
            if input == .end { break }
            statements.append(input)
            prompts.append("")
        }
        #expect(
            statements == [
                .statement(".print 'a\nb'", line: 2), .statement(".print c \nd", line: 4), .statement("(\n.print e", line: 6),
            ])
    }

    @Test func continuationPromptIsShownForUnfinishedInput() {
        let terminal = ScriptedTerminal([.line(".print 'a"), .line("b'")])
        var reader = StatementReader(source: terminal)
        _ = reader.next(prompt: "Book> ", continuation: " ...> ")
        #expect(terminal.prompts == ["Book> ", " ...> "])
    }

    @Test func cancellingDropsTheWholeStatement() {
        let terminal = ScriptedTerminal([.line(".print 'a"), .cancelled, .line(".print b")])
        var reader = StatementReader(source: terminal)
        #expect(reader.next(prompt: "> ", continuation: "...> ") == .cancelled)
        // The cancelled input was no line: numbering goes on from the last line read.
        #expect(reader.next(prompt: "> ", continuation: "...> ") == .statement(".print b", line: 2))
    }

    @Test func fileLinesHandleCRLFBOMAndAMissingLastNewline() throws {
        let path = ScratchDirectory.path("lines", extension: "txt")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data([0xef, 0xbb, 0xbf] + Array("one\r\ntwo\nthree".utf8)).write(to: URL(fileURLWithPath: path))
        let source = try TextLineSource(path: path)
        #expect(source.read(prompt: "") == .line("one"))
        #expect(source.read(prompt: "") == .line("two"))
        #expect(source.read(prompt: "") == .line("three"))
        #expect(source.read(prompt: "") == .end)
    }

    /// A statement continued over many lines is looked at once, not once per line: the
    /// work grows with its length (re-reading it at every line made 10,000 lines take 52 s).
    @Test func aLongContinuedStatementIsScannedOnce() {
        let lines = [".print 'start"] + (1..<20_000).map { "line \($0) (still quoted" } + ["end'", ".print next"]
        var reader = StatementReader(source: TextLineSource(lines: lines, name: "s"))
        guard case .statement(let text, line: 1) = reader.next(prompt: "", continuation: "") else {
            Issue.record("no statement")
            return
        }
        #expect(text.split(separator: "\n").count == 20_001)
        // Every scalar once, and the line breaks between the lines.
        #expect(reader.scannedScalars == text.unicodeScalars.count)
        #expect(reader.next(prompt: "", continuation: "") == .statement(".print next", line: 20_002))
    }

    @Test func aStatementPastTheLimitFails() {
        let line = String(repeating: "x", count: 1 << 20)
        var reader = StatementReader(source: TextLineSource(lines: ["", ".print 'open"] + Array(repeating: line, count: 5), name: "s"))
        #expect(reader.next(prompt: "", continuation: "") == .failed(InputLimits.statementTooLong, line: 2))
        #expect(InputLimits.statementTooLong == "statement continued past 4 MiB, the most a statement may hold")
    }

    /// A line may be as long as the limit; past it the input fails, having held no more.
    @Test func aLinePastTheLimitFailsAndEndsTheInput() throws {
        let path = ScratchDirectory.path("long", extension: "txt")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let longest = Data(repeating: UInt8(ascii: "a"), count: InputLimits.lineBytes)
        try (longest + Data("\n".utf8) + longest + Data("b\n.print after\n".utf8)).write(to: URL(fileURLWithPath: path))
        let source = try TextLineSource(path: path)
        #expect(source.read(prompt: "") == .line(String(repeating: "a", count: InputLimits.lineBytes)))
        #expect(source.read(prompt: "") == .failed("line longer than 4 MiB, the most a line may hold"))
        #expect(source.read(prompt: "") == .end)
    }

    @Test func unreadableScriptsSayWhy() {
        #expect(throws: ShellError.self) { try TextLineSource(path: "/nonexistent/script") }
        do {
            _ = try TextLineSource(path: "/tmp")
        } catch {
            #expect(error.message == "cannot read /tmp: it is a directory")
        }
    }
}
