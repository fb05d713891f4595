import Foundation
import Testing

@testable import GraphStore
@testable import GraphStoreShell

/// `--json-document`: a script of several commands writes one JSON document (an entry per
/// command), or JSONL lines each tagged with its command, never arrays glued together.
@Suite struct JSONDocumentTests {
    /// Runs `lines` as a script (carrying on after errors) under a JSON document; the text
    /// written.
    static func document(_ lines: [String], mode: OutputMode = .json) throws -> String {
        let harness = try ShellHarness()
        harness.shell.settings.select(mode)
        harness.shell.startJSONDocument(lines: mode == .jsonl)
        harness.run(lines, bail: false)
        harness.shell.finishJSONDocument()
        return harness.output
    }

    static func entries(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], "\(text)")
    }

    @Test func severalCommandsAreOneArrayWithAnEntryEach() throws {
        let text = try Self.document([".entities", "count Book", ".print done", "fetch Nope", ".headers on"])
        let entries = try Self.entries(text)
        #expect(entries.map { $0["command"] as? String } == [".entities", "count Book", ".print done", "fetch Nope", ".headers on"])
        let entities = try #require(entries[0]["rows"] as? [[String: Any]])
        #expect(entities.map { $0["entity"] as? String } == ["Book", "BookCategory", "Page"])
        #expect((entries[1]["rows"] as? [[String: Any]])?.first?["count"] as? Int == 3)
        #expect(entries[2]["text"] as? String == "done\n")
        #expect(entries[2]["rows"] == nil)
        #expect((entries[3]["error"] as? String)?.hasPrefix("no entity named Nope") == true)
        #expect(entries[3]["rows"] == nil, "a command that fails before its first row has no rows")
        #expect(entries[4].count == 1, "a command that writes nothing is its text alone")
    }

    @Test func jsonlTagsEveryLineWithItsCommand() throws {
        let text = try Self.document([".rows BookCategory", ".print done", "fetch Nope"], mode: .jsonl)
        let lines = text.split(separator: "\n").map(String.init)
        let objects = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], "\($0)") }
        #expect(objects.count == 4)
        #expect(objects.prefix(2).allSatisfy { $0["command"] as? String == ".rows BookCategory" })
        #expect((objects[1]["row"] as? [String: Any])?["ZNAME"] as? String == "Biography")
        #expect(objects[2]["command"] as? String == ".print done" && objects[2]["text"] as? String == "done\n")
        #expect(objects[3]["command"] as? String == "fetch Nope" && objects[3]["error"] != nil)
    }

    /// Results in a mode that is not JSON, and a `.read` script's commands, keep the
    /// document whole: the one as text, the others as entries of their own.
    @Test func otherModesAndScriptsStayInTheDocument() throws {
        let harness = try ShellHarness()
        try "count Book\n.mode csv\ncount BookCategory\n".write(toFile: harness.directory + "/checks.graphstore", atomically: true, encoding: .utf8)
        harness.shell.settings.select(.json)
        harness.shell.startJSONDocument(lines: false)
        harness.run([".read checks.graphstore", ".print after"], bail: false)
        harness.shell.finishJSONDocument()
        let entries = try Self.entries(harness.output)
        #expect(entries.map { $0["command"] as? String } == [".read checks.graphstore", "count Book", ".mode csv", "count BookCategory", ".print after"])
        #expect((entries[1]["rows"] as? [[String: Any]])?.first?["count"] as? Int == 3)
        #expect(entries[3]["text"] as? String == "count\n2\n")
    }

    /// A command whose result stops on an error after some rows still closes its entry.
    @Test func aResultCutShortStillParses() throws {
        var written = ""
        let document = JSONDocument(format: .array) { written += $0 }
        document.beginCommand("fetch Book")
        document.beginRows()
        document.row(#"{"title":"Dune"}"#)
        document.endCommand(error: "interrupted")
        document.finish()
        let entries = try Self.entries(written)
        #expect(entries.count == 1)
        #expect((entries[0]["rows"] as? [[String: Any]])?.count == 1)
        #expect(entries[0]["error"] as? String == "interrupted")
        // Nothing run: an empty array.
        var empty = ""
        JSONDocument(format: .array) { empty += $0 }.finish()
        #expect(empty == "[]\n")
    }

    @Test func theOptionMeansJSONAndRefusesOtherModes() throws {
        #expect(try LaunchOptions.parse(["--json-document", "S"]).mode == .json)
        #expect(try LaunchOptions.parse(["--jsonl", "--json-document", "S"]).mode == .jsonl)
        #expect(try LaunchOptions.parse(["--json-document", "S"]).jsonDocument)
        #expect(throws: ShellError.self) { try LaunchOptions.parse(["--csv", "--json-document", "S"]) }
    }
}
