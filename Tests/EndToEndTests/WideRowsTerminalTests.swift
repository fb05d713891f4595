import Foundation
import Testing

/// Wide rows at a real terminal (a pseudo-terminal): shown one field per line by default
/// (`\x auto`, as psql users set it), handed to the pager whole so that it scrolls sideways,
/// and never cut outside a terminal; and a script's JSON as one document.
@Suite(.serialized) struct WideRowsTerminalTests {
    typealias FakePager = PagerTerminalTests.FakePager

    /// Thirty-eight columns: wider than a terminal of 80.
    static let wide = "sql SELECT " + (1...38).map { "\($0) AS column_number_\($0)" }.joined(separator: ", ")

    /// The same thirty-eight columns on fifty rows: taller than a terminal of 20 rows too.
    static let wideAndTall =
        "sql WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 50) SELECT "
        + (1...38).map { "x AS column_number_\($0)" }.joined(separator: ", ") + " FROM n"

    @Test func wideRowsAreRecordsWithoutBeingAsked() throws {
        let (terminal, _) = try TerminalTests.start(columns: 80)
        #expect(PagerTerminalTests.run(terminal, Self.wide))
        #expect(terminal.screen.text.contains { $0.hasPrefix("-[ RECORD 1 ]") }, "\(terminal.screen.text)")
        #expect(terminal.screen.text.contains { $0.hasPrefix("column_number_38 | 38") }, "\(terminal.screen.text)")
        // Nothing was cut, so nothing is said about it.
        #expect(!String(decoding: terminal.bytes, as: UTF8.self).contains("cut to fit"))
        // A narrow result is still a table.
        #expect(PagerTerminalTests.run(terminal, ".rows BookCategory"))
        #expect(terminal.screen.text.contains("| 1    | 2     | 1     | Fiction   |"), "\(terminal.screen.text)")
        #expect(PagerTerminalTests.run(terminal, ".mode csv"))
        #expect(PagerTerminalTests.run(terminal, ".settings"))
        #expect(terminal.screen.text.contains("expanded,auto"), "\(terminal.screen.text)")
        terminal.type(".quit\r")
        #expect(terminal.waitForExit() == 0)
    }

    /// With `\x off`, a wide result that goes to the pager reaches it whole (`less -S`
    /// scrolls sideways); with `\x auto` the pager gets records.
    @Test func thePagerGetsWholeLines() throws {
        let pager = try FakePager()
        let (terminal, _) = try TerminalTests.start(columns: 80, rows: 20, environment: ["PAGER": pager.command])
        #expect(PagerTerminalTests.run(terminal, "\\x off"))
        #expect(PagerTerminalTests.run(terminal, Self.wideAndTall))
        #expect(pager.runs == 1)
        let lines = pager.paged.split(separator: "\n")
        #expect(lines.count == 50 + 4, "\(pager.paged)")
        #expect(lines.allSatisfy { $0.count > 80 })
        #expect(!pager.paged.contains("…"))
        #expect(lines.contains { $0.hasPrefix("| 50 ") }, "\(pager.paged)")
        #expect(!String(decoding: terminal.bytes, as: UTF8.self).contains("cut to fit"))
        #expect(PagerTerminalTests.run(terminal, "\\x auto"))
        #expect(PagerTerminalTests.run(terminal, Self.wideAndTall))
        #expect(pager.runs == 2)
        #expect(pager.paged.contains("-[ RECORD 50 ]"))
        terminal.type(".quit\r")
        #expect(terminal.waitForExit() == 0)
    }

    /// Wire's Message, whose rows carry the attributes of every kind of message: at a
    /// terminal of 100 columns each message is a record, no value cut to three characters
    /// (as "Sys…" once was), and through a pipe the table is whole.
    @Test func wireMessagesAreReadable() throws {
        guard let path = try StoredValueEndToEndTests.wireStoreCopy() else { return }
        let home = try ScriptTests.home()
        let environment = ["HOME": home.path, "TERM": "xterm", "PATH": "/usr/bin:/bin", "NO_COLOR": "1", "PAGER": ""]
        let terminal = try PseudoTerminal(arguments: [path, "-c", "fetch Message sort serverTimestamp limit 3"], environment: environment, columns: 100, rows: 40)
        #expect(terminal.waitForExit() == 0)
        let shown = String(decoding: terminal.bytes, as: UTF8.self)
        #expect(shown.components(separatedBy: "-[ RECORD ").count == 4, "\(shown)")
        #expect(!shown.contains("cut to fit"))
        #expect(shown.contains("object "), "\(shown)")
        let piped = try ScriptTests.run([path, "-c", "fetch Message sort serverTimestamp limit 3"])
        #expect(piped.status == 0, "\(piped.stderr)")
        let rows = piped.stdout.split(separator: "\n")
        #expect(rows.count == 3 + 4)
        #expect(rows.allSatisfy { $0.count > 100 } && !piped.stdout.contains("| … |"))
    }

    /// A script of several commands under `--json-document` is one text a parser reads.
    @Test func aScriptIsOneJSONDocument() throws {
        let result = try ScriptTests.run(["--json-document", "--no-bail", GraphStoreBinary.exampleStore, "-c", ".entities", "-c", "count Book", "-c", "count Nope"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no entity named Nope"))
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], "\(result.stdout)")
        #expect(entries.map { $0["command"] as? String } == [".entities", "count Book", "count Nope"])
        #expect((entries[1]["rows"] as? [[String: Any]])?.first?["count"] as? Int == 3)
        #expect(entries[2]["error"] != nil)
        let lines = try ScriptTests.run(["--jsonl", "--json-document", GraphStoreBinary.exampleStore, "-c", ".rows BookCategory", "-c", "count Book"])
        let tagged = lines.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(tagged.count == 3)
        #expect(tagged.map { $0["command"] as? String } == [".rows BookCategory", ".rows BookCategory", "count Book"])
    }
}
