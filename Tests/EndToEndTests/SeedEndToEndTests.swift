import Foundation
import Testing
import TestScratch

/// Building and checking a seed with the built binary: `--create`, `.open --create`,
/// `verify` (its exit statuses, `--json`, `--expect`, `graphstore verify …`).
@Suite struct SeedEndToEndTests {
    static let model = GraphStoreBinary.packageRoot.appendingPathComponent("examples/BookStore/BookStore.xcdatamodeld").path

    static func newPath(_ name: String = "seed.sqlite") throws -> String {
        try ScratchDirectory.make("seed-e2e").appendingPathComponent(name).path
    }

    @Test func createMakesAnEmptyStoreInCoreDatasLayout() throws {
        let path = try Self.newPath()
        let made = try ScriptTests.run(["--write", "--model", Self.model, "--create", path, "-c", "count Book"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("0"))
        let schema = try ScriptTests.run(["-list", "-noheader", path, "-c", "sql SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"])
        #expect(schema.stdout == "ZBOOK\nZBOOKCATEGORY\nZPAGE\nZ_METADATA\nZ_PRIMARYKEY\n")
        let keys = try ScriptTests.run(["-list", "-noheader", path, "-c", "sql SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY"])
        #expect(keys.stdout == "1|Book|0|0\n2|BookCategory|0|0\n3|Page|0|0\n")
        // A new store is fit to ship as it is.
        let verified = try ScriptTests.run(["verify", "--model", Self.model, path])
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
    }

    @Test func createRefusesAnExistingFileAndNeedsWriteAndModel() throws {
        let path = try Self.newPath()
        try Data("keep".utf8).write(to: URL(fileURLWithPath: path))
        let refused = try ScriptTests.run(["--write", "--model", Self.model, "--create", path, "-c", ".quit"])
        #expect(refused.status == 4)
        #expect(refused.stderr.contains("already exists"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep")
        let noWrite = try ScriptTests.run(["--model", Self.model, "--create", try Self.newPath()])
        #expect(noWrite.status == 2)
        #expect(noWrite.stderr.contains("--create needs --write and --model"))
    }

    @Test func openCreateInTheREPL() throws {
        let path = try Self.newPath()
        let result = try ScriptTests.run(["--write", "-list"], input: ".open --create --model '\(Self.model)' '\(path)'\ninsert Book title='One' price=20\nsave\ncount Book\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("count\n1\n"), "\(result.stdout)")
    }

    @Test func verifyExitStatusesAndJSON() throws {
        // The example store has two books below the model's minimum price.
        let store = try GraphStoreBinary.copy(GraphStoreBinary.exampleStore)
        let before = BrokenStores.bytes(of: store)
        let failing = try ScriptTests.run(["verify", "--json", "--model", Self.model, store])
        #expect(failing.status == 3)
        #expect(failing.stdout.contains(#"{"check":"validation.objects","result":"FAIL","found":2"#), "\(failing.stdout)")
        #expect(failing.stderr.contains("1 of 18 checks failed: validation.objects"))
        #expect(BrokenStores.bytes(of: store) == before)
        let missing = try ScriptTests.run(["verify", try Self.newPath("absent.sqlite")])
        #expect(missing.status == 4)
        let fixed = try BrokenStores.changed(store, sql: "UPDATE ZBOOK SET ZPRICE = 20")
        let passing = try ScriptTests.run(["--model", Self.model, fixed, "-c", "verify"])
        #expect(passing.status == 0, "\(passing.stdout)")
        #expect(passing.stderr == "verify: 18 checks, none failed\n")
    }

    @Test func verifyExpectations() throws {
        let store = try BrokenStores.changed(GraphStoreBinary.exampleStore, sql: "UPDATE ZBOOK SET ZPRICE = 20")
        let checks = try Self.newPath("release.checks")
        try "count Book >= 4\nexists BookCategory where name == \"Fiction\"\n".write(toFile: checks, atomically: true, encoding: .utf8)
        let result = try ScriptTests.run(["-list", "-noheader", "verify", "--expect", checks, store])
        #expect(result.status == 3)
        #expect(result.stdout.contains("expect.1|FAIL|1|count Book >= 4 (3 objects)\n"), "\(result.stdout)")
        #expect(result.stdout.contains("expect.2|ok|0|exists BookCategory where name == \"Fiction\" (1 object)\n"))
    }
}

/// `examples/BookStore/seeds/story.sh`, the chapter's whole seeding story, run with the built
/// binary: its output (both streams) must match `examples/BookStore/expected/seeds.out`.
@Suite struct SeedStoryExampleTests {
    @Test func theBookStoreSeedStory() throws {
        let script = GraphStoreBinary.packageRoot.appendingPathComponent("examples/BookStore/seeds/story.sh").path
        let expected = GraphStoreBinary.packageRoot.appendingPathComponent("examples/BookStore/expected/seeds.out").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "sh \"$0\" 2>&1", script]
        var environment = ProcessInfo.processInfo.environment
        environment["GRAPHSTORE"] = GraphStoreBinary.path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text == (try String(contentsOfFile: expected, encoding: .utf8)))
    }
}

/// `diff --json`, `seed apply --dry-run` and `seed status` with the built binary.
@Suite struct SeedCommandEndToEndTests {
    @Test func diffAsJSONAndADryRunThatWritesNothing() throws {
        let model = SeedEndToEndTests.model
        let old = try GraphStoreBinary.copy(GraphStoreBinary.exampleStore)
        let new = try BrokenStores.changed(old, name: "new.sqlite", sql: "UPDATE ZBOOK SET ZPRICE = 40 WHERE Z_PK = 2")
        let script = (new as NSString).deletingLastPathComponent + "/update-7.graphstore"
        let diff = try ScriptTests.run(["diff", "--json", "--model", model, old, new, "--key", "Book=title", "--key", "BookCategory=name", "--script", script])
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(diff.stdout.contains(#""change":"changed","entity":"Book""#), "\(diff.stdout)")
        #expect(diff.stdout.contains(#""property":"price","old":"#), "\(diff.stdout)")
        #expect(diff.stderr == "diff: 1 object differs\n")
        let before = BrokenStores.bytes(of: old)
        let dry = try ScriptTests.run(["--model", model, old, "-c", "seed apply --dry-run '\(script)'", "-c", "seed status"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("0 inserted, 1 updated, 0 linked, 0 deleted, 0 unchanged (dry run: nothing written)"), "\(dry.stdout)")
        #expect(dry.stdout.hasSuffix("seed version: none recorded\n"))
        #expect(BrokenStores.bytes(of: old) == before)
        let applied = try ScriptTests.run(["--write", "--model", model, old, "-c", "seed apply '\(script)'", "-c", "seed status"])
        #expect(applied.stdout.hasSuffix("seed version: update-7\n"), "\(applied.stdout)\(applied.stderr)")
        let after = try ScriptTests.run(["diff", "--model", model, old, new, "--key", "Book=title,BookCategory=name"])
        #expect(after.stderr == "diff: no differences\n")
    }
}
