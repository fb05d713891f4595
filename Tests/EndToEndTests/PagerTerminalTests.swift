import Foundation
import Testing

/// The pager and wide results at a real terminal (a pseudo-terminal), with a fake `PAGER`
/// that records what it was given.
@Suite(.serialized) struct PagerTerminalTests {
    static let prompt = TerminalTests.prompt

    /// A pager script that appends what it reads to `paged` and counts its runs in `runs`.
    struct FakePager {
        let directory: Scratch
        var command: String { directory.path + "/pager" }
        var paged: String { (try? String(contentsOfFile: directory.path + "/paged", encoding: .utf8)) ?? "" }
        var runs: Int { ((try? String(contentsOfFile: directory.path + "/runs", encoding: .utf8)) ?? "").split(separator: "\n").count }

        init(script: String = #"cat >> "$(dirname "$0")/paged""#) throws {
            directory = try Scratch()
            let text = "#!/bin/sh\necho run >> \"$(dirname \"$0\")/runs\"\n" + script + "\n"
            try text.write(toFile: directory.path + "/pager", atomically: true, encoding: .utf8)
            chmod(directory.path + "/pager", 0o755)
        }
    }

    /// Types a command and waits until its prompt is back (counted in all that was drawn, so
    /// that a screen that scrolled does not matter).
    static func run(_ terminal: PseudoTerminal, _ line: String) -> Bool {
        let prompts = prompted(terminal)
        terminal.type(line + "\r")
        return terminal.waitFor { _ in prompted(terminal) > prompts }
    }

    static func prompted(_ terminal: PseudoTerminal) -> Int {
        String(decoding: terminal.bytes, as: UTF8.self).components(separatedBy: prompt + " ").count - 1
    }

    /// Fifty numbered rows: taller than a terminal of 20 rows.
    static let tall = "sql WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 50) SELECT x AS number FROM n"

    @Test func resultsTallerThanTheTerminalGoThroughThePager() throws {
        let pager = try FakePager()
        let (terminal, _) = try TerminalTests.start(rows: 20, environment: ["PAGER": pager.command])
        #expect(Self.run(terminal, Self.tall))
        #expect(pager.runs == 1)
        #expect(pager.paged.contains("| 50     |") && pager.paged.hasPrefix("+--------+\n| number |"), "\(pager.paged)")
        #expect(!terminal.screen.text.contains { $0.contains("| 50 ") }, "the pager had it all")
        // A result that fits is written to the terminal.
        #expect(Self.run(terminal, ".rows BookCategory"))
        #expect(terminal.screen.text.contains { $0.contains("Biography") })
        #expect(pager.runs == 1)
        // on: every result; off: none.
        #expect(Self.run(terminal, ".pager on"))
        #expect(Self.run(terminal, ".rows BookCategory 1"))
        #expect(pager.runs == 2)
        #expect(pager.paged.contains("| Fiction |"))
        #expect(Self.run(terminal, ".pager off"))
        #expect(Self.run(terminal, Self.tall))
        #expect(terminal.screen.text.contains { $0.contains("| 50 ") }, "\(terminal.screen.text)")
        #expect(pager.runs == 2)
        terminal.type(".quit\r")
        #expect(terminal.waitForExit() == 0)
    }

    /// Quitting the pager early (here after five lines) stops the command quietly.
    @Test func quittingThePagerStopsTheCommandQuietly() throws {
        let pager = try FakePager(script: #"head -n 5 >> "$(dirname "$0")/paged""#)
        let (terminal, _) = try TerminalTests.start(store: LargeStore.path, rows: 20, environment: ["PAGER": pager.command])
        #expect(Self.run(terminal, ".rows Book"))
        #expect(pager.runs == 1)
        #expect(pager.paged.split(separator: "\n").count == 5)
        #expect(!String(decoding: terminal.bytes, as: UTF8.self).contains("error"), "\(terminal.screen.text)")
        #expect(Self.run(terminal, ".print alive"))
        #expect(terminal.screen.text.contains("alive"))
        terminal.type(".quit\r")
        #expect(terminal.waitForExit() == 0)
    }

    /// Commands given on the command line, and piped scripts, are never paged.
    @Test func neverForScriptsOrPipes() throws {
        let pager = try FakePager()
        let home = try ScriptTests.home()
        let environment = ["HOME": home.path, "TERM": "xterm", "PATH": "/usr/bin:/bin", "NO_COLOR": "1", "PAGER": pager.command]
        let terminal = try PseudoTerminal(arguments: [GraphStoreBinary.exampleStore, Self.tall], environment: environment, columns: 100, rows: 20)
        #expect(terminal.waitForExit() == 0)
        #expect(terminal.screen.text.contains { $0.contains("| 50 ") } || String(decoding: terminal.bytes, as: UTF8.self).contains("| 50 "))
        let piped = try ScriptTests.run([GraphStoreBinary.exampleStore], input: Self.tall + "\n", environment: ["PAGER": pager.command])
        #expect(piped.stdout.contains("| 50 "))
        #expect(pager.runs == 0)
    }

    /// `\x auto` shows rows wider than the terminal one field per line; `\x on` every row.
    @Test func expandedDisplay() throws {
        let (terminal, _) = try TerminalTests.start(columns: 60)
        #expect(Self.run(terminal, "\\x auto"))
        #expect(terminal.screen.text.contains("expanded display is used automatically"), "\(terminal.screen.text)")
        #expect(Self.run(terminal, ".schema Book"))
        #expect(terminal.screen.text.contains { $0.hasPrefix("-[ RECORD 1 ]--") && $0.count <= 60 }, "\(terminal.screen.text)")
        #expect(terminal.screen.text.contains("entity    | Book"), "\(terminal.screen.text)")
        // A narrow result is still a table.
        #expect(Self.run(terminal, ".rows BookCategory"))
        #expect(terminal.screen.text.contains("| 1    | 2     | 1     | Fiction   |"), "\(terminal.screen.text)")
        // With no argument, \x switches between on and off (from auto it goes off, as in psql).
        #expect(Self.run(terminal, "\\x"))
        #expect(terminal.screen.text.contains("expanded display is off"), "\(terminal.screen.text)")
        #expect(Self.run(terminal, "\\x"))
        #expect(terminal.screen.text.contains("expanded display is on"))
        #expect(Self.run(terminal, ".rows BookCategory 1"))
        #expect(terminal.screen.text.contains("ZNAME | Fiction"), "\(terminal.screen.text)")
        terminal.type(".quit\r")
        #expect(terminal.waitForExit() == 0)
    }

    /// With `\x off`, table and box results never print wider than the terminal: wide values
    /// are cut with `…` and columns that cannot fit at all are left out; said once. (`\x
    /// auto`, the default at a terminal, shows them as records: see `WideRowsTerminalTests`.)
    @Test func tablesNeverPrintWiderThanTheTerminal() throws {
        let wide = "sql SELECT " + (1...38).map { "\($0) AS column_number_\($0)" }.joined(separator: ", ")
        let (terminal, _) = try TerminalTests.start(columns: 80)
        #expect(Self.run(terminal, "\\x off"))
        #expect(Self.run(terminal, wide))
        #expect(terminal.screen.text.contains { $0.hasSuffix("| … |") }, "\(terminal.screen.text)")
        let note = "note: the table was cut to fit the terminal's 80 columns"
        #expect(terminal.waitFor(text: note))
        #expect(Self.run(terminal, ".mode box"))
        #expect(Self.run(terminal, wide))
        #expect(terminal.screen.text.contains { $0.hasSuffix("│ … │") }, "\(terminal.screen.text)")
        terminal.type(".quit\r")
        #expect(terminal.waitForExit() == 0)
        let lines = String(decoding: terminal.bytes, as: UTF8.self).split(separator: "\r\n").map(String.init)
        let table = lines.filter { $0.hasPrefix("|") || $0.hasPrefix("+") || $0.hasPrefix("│") || $0.hasPrefix("┌") || $0.hasPrefix("└") }
        #expect(table.count >= 8, "\(lines)")
        #expect(table.allSatisfy { $0.count <= 80 }, "\(table.map(\.count))")
        // Said once, though two results were cut.
        #expect(String(decoding: terminal.bytes, as: UTF8.self).components(separatedBy: note).count == 2)
    }
}
