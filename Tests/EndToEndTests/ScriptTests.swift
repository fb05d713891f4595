import Foundation
import Testing

/// The built binary on scripts and in CI: exit codes, stderr format, bail, flags, rc files.
@Suite struct ScriptTests {
    static let store = GraphStoreBinary.exampleStore

    /// A fresh home directory, so that no rc or history file of the machine's user is read;
    /// removed when the test's last reference to it goes.
    static func home(rc: String? = nil) throws -> Scratch {
        let home = try Scratch()
        if let rc { try rc.write(toFile: home.path + "/.graphstorerc", atomically: true, encoding: .utf8) }
        return home
    }

    static func run(_ arguments: [String], input: String? = nil, home: Scratch? = nil, environment: [String: String] = [:]) throws
        -> GraphStoreBinary.Result
    {
        let home = try home ?? Self.home()
        var environment = environment
        environment["HOME"] = home.path
        environment["GRAPHSTORE_HISTORY"] = nil
        return try withExtendedLifetime(home) { try GraphStoreBinary.run(arguments, input: input, environment: environment) }
    }

    @Test func pipedInputHasNoBannerPromptOrHistory() throws {
        let home = try Self.home()
        let result = try Self.run([Self.store], input: ".mode csv\n.rows BookCategory\n", home: home)
        #expect(result.status == 0)
        #expect(result.stdout == "Z_PK,Z_ENT,Z_OPT,ZNAME\n1,2,1,Fiction\n2,2,1,Biography\n")
        #expect(result.stderr.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: home.path + "/.graphstore_history"))
    }

    @Test func noBailCarriesOnAndStillFails() throws {
        let result = try Self.run(["--no-bail", Self.store], input: ".print one\n.rows Nope\n.print three\n.bogus\n.print five\n")
        #expect(result.status == 1)
        #expect(result.stdout == "one\nthree\nfive\n")
        #expect(result.stderr == "stdin:2: no entity or table named Nope; entities: Book, BookCategory, Page; other tables: Z_METADATA, Z_PRIMARYKEY\nstdin:4: unknown command .bogus; .help lists the commands\n")
        let bailing = try Self.run(["--bail", Self.store], input: ".print one\n.rows Nope\n.print three\n")
        #expect(bailing.status == 1)
        #expect(bailing.stdout == "one\n")
    }

    @Test func scriptFilesReportTheirOwnNameAndLine() throws {
        let directory = try Self.home()
        let script = directory.path + "/check.graphstore"
        try "-- a comment\n.print ok\n\n.print 'unterminated\n".write(toFile: script, atomically: true, encoding: .utf8)
        let result = try Self.run([Self.store, "-f", script])
        #expect(result.status == 1)
        #expect(result.stdout == "ok\n")
        #expect(result.stderr == "\(script):4: unterminated quote in: 'unterminated\n")
    }

    @Test func commandsAndFilesRunInTheOrderGiven() throws {
        let directory = try Self.home()
        try ".print from the file\n".write(toFile: directory.path + "/middle.gs", atomically: true, encoding: .utf8)
        let result = try Self.run([Self.store, "-c", ".print first", "-f", directory.path + "/middle.gs", "-c", ".print last"], input: ".print never\n")
        #expect(result.status == 0)
        #expect(result.stdout == "first\nfrom the file\nlast\n")
        // sqlite3's habit: commands after the store.
        let positional = try Self.run(["--mode", "csv", Self.store, ".rows BookCategory 1"])
        #expect(positional.stdout == "Z_PK,Z_ENT,Z_OPT,ZNAME\n1,2,1,Fiction\n")
    }

    @Test func missingScriptExitsOneAndMissingStoreFour() throws {
        let script = try Self.run([Self.store, "-f", "/nonexistent/x.gs"])
        #expect(script.status == 1)
        #expect(script.stderr == "graphstore: cannot read /nonexistent/x.gs: No such file or directory\n")
        let store = try Self.run(["/nonexistent/store.sqlite", "-c", ".entities"])
        #expect(store.status == 4)
    }

    @Test func usageErrorsExitTwoWithAHint() throws {
        for arguments in [["-jsn"], ["--mode", "fancy"], ["-c"], ["--model", "m.xcdatamodeld"]] {
            let result = try Self.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.hasPrefix("graphstore: "), "\(arguments)")
            #expect(result.stderr.hasSuffix("Try 'graphstore --help' for more information.\n"), "\(arguments)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func helpAndVersionExitZero() throws {
        let help = try Self.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("Usage: graphstore [OPTIONS] [STORE [COMMAND...]]"))
        #expect(help.stdout.contains("4  the store could not be opened"))
        let version = try Self.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("graphstore "))
    }

    /// A command that fails writes nothing on standard output, so that a script's output
    /// stays parseable: not JSON's `[]`, not a table's header.
    @Test(arguments: ["json", "table", "csv", "html"]) func aFailingCommandPrintsNothing(mode: String) throws {
        let result = try Self.run(["--mode", mode, Self.store, "-c", #"fetch Book where price > "x""#])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        #expect(result.stderr == "-c:1: cannot compare a number with a string\n")
    }

    /// A predicate error points at its column, counted from the start of the line typed,
    /// with a caret under that line.
    @Test func predicateErrorsPointAtTheLine() throws {
        let result = try Self.run([Self.store, "-c", "count Book; fetch Book where price >> 3 limit 2"])
        #expect(result.stderr == """
            -c:1: fetch: bad predicate at column 40: expected a comparison operator after '3'
              count Book; fetch Book where price >> 3 limit 2
                                                     ^

            """)
        for command in ["validate Book where title ==", "explain count Book where title =="] {
            let other = try Self.run([Self.store, "-c", command])
            let column = command.count + 1
            #expect(other.stderr.contains("bad predicate at column \(column): expected a value after '=='\n  \(command)\n  \(String(repeating: " ", count: column - 1))^"), "\(other.stderr)")
        }
        // Over several lines, the error names the line the fault is on, and its column there.
        let continued = try Self.run([Self.store], input: "count Book where (price > 3\n  AND price >> 4)\n")
        #expect(continued.stderr.hasPrefix("stdin:2: count: bad predicate at column 17: expected a comparison operator, found ')'\n    AND price >> 4)\n"))
    }

    @Test func exitCodeFromExitCommand() throws {
        let result = try Self.run([Self.store], input: ".print a\n.exit 3\n.print b\n")
        #expect(result.status == 3)
        #expect(result.stdout == "a\n")
    }

    @Test func jsonIsValidEvenWhenEmpty() throws {
        let empty = try Self.run(["--json", Self.store, ".rows Page"])
        #expect(empty.stdout == "[]\n")
        let books = try Self.run(["--json", Self.store, ".rows Book"])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(books.stdout.utf8)) as? [[String: Any]])
        #expect(parsed.count == 3)
        #expect(parsed[0]["ZPRICE"] as? Int == 10)
    }

    @Test func rcFileInitFileAndNoRC() throws {
        let home = try Self.home(rc: ".mode csv\n.headers off\n")
        let withRC = try Self.run([Self.store, ".rows BookCategory 1"], home: home)
        #expect(withRC.stdout == "1,2,1,Fiction\n")
        let without = try Self.run(["--no-rc", Self.store, ".rows BookCategory 1"], home: home)
        #expect(without.stdout.hasPrefix("+------+"))
        try ".mode jsonl\n".write(toFile: home.path + "/init.gs", atomically: true, encoding: .utf8)
        let initFile = try Self.run(["--init", home.path + "/init.gs", Self.store, ".rows BookCategory 1"], home: home)
        #expect(initFile.stdout == #"{"Z_PK":1,"Z_ENT":2,"Z_OPT":1,"ZNAME":"Fiction"}"# + "\n")
        let missing = try Self.run(["--init", home.path + "/missing.gs", Self.store, ".entities"], home: home)
        #expect(missing.status == 1)
        #expect(missing.stdout.isEmpty)
        // A failing rc file is reported with its own name and line.
        let broken = try Self.home(rc: ".mode csv\n.mode fancy\n")
        let failed = try Self.run([Self.store, ".entities"], home: broken)
        #expect(failed.status == 1)
        #expect(failed.stderr == "\(broken.path)/.graphstorerc:2: no output mode fancy; modes: table box csv tsv json jsonl line list markdown html\n")
    }

    @Test func dataGoesToStandardOutputAndEverythingElseToStandardError() throws {
        let result = try Self.run(["--mode", "csv", Self.store], input: ".timer on\n.rows BookCategory\n")
        #expect(result.stdout == "Z_PK,Z_ENT,Z_OPT,ZNAME\n1,2,1,Fiction\n2,2,1,Biography\n")
        #expect(result.stderr.hasPrefix("time: real "))
        #expect(!result.stdout.contains("\u{1b}["))
    }

    @Test func outputRedirectionWritesFiles() throws {
        let directory = try Self.home()
        let result = try Self.run(["--mode", "csv", Self.store], input: ".once \(directory.path)/c.csv\n.rows BookCategory\n.print done\n")
        #expect(result.stdout == "done\n")
        #expect(try String(contentsOfFile: directory.path + "/c.csv", encoding: .utf8) == "Z_PK,Z_ENT,Z_OPT,ZNAME\n1,2,1,Fiction\n2,2,1,Biography\n")
    }

    @Test func parametersAndEchoInScripts() throws {
        let result = try Self.run([Self.store], input: ".echo on\n.parameter set since 2024-05-01\n.mode tsv\n.parameter list\n")
        #expect(result.stdout == ".parameter set since 2024-05-01\n.mode tsv\n.parameter list\nname\tvalue\tgiven_as\n$since\tCAST(736214400.000000, \"NSDate\")\t2024-05-01\n")
    }

    /// The 9,999-row bug: tables of more rows than graphstore measures first were drawn
    /// wider than their borders once keys reached 10,000 (and objects p1000). Every row now
    /// lies within the borders around it.
    @Test(arguments: [".rows Book 12000", "fetch Book limit 12000"]) func tablesOfManyRowsKeepTheirBorders(command: String) throws {
        let result = try Self.run([LargeStore.path, command])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count > 12_000)
        var border = lines[0]
        var misaligned = 0
        for line in lines {
            if line.hasPrefix("+") { border = line } else if line.count != border.count { misaligned += 1 }
        }
        #expect(misaligned == 0)
        #expect(lines.contains { $0.hasPrefix("| 10000 ") || $0.hasPrefix("| Book/p10000 ") })
    }

    /// A large result is printed whole, and streams: printing 300,000 rows takes hardly more
    /// memory than printing the entity list (the CSV text alone is over 10 MB).
    @Test func largeResultsStream() throws {
        let store = LargeStore.path
        let result = try Self.run(["--mode", "csv", store, ".rows Book"])
        #expect(result.status == 0)
        let last = LargeStore.bookCount + 3
        #expect(result.stdout.hasSuffix("\(last),1,1,\(last % 50),Book number \(last),\(1 + last % 2)\n"))
        #expect(result.stdout.split(separator: "\n").count == LargeStore.bookCount + 4)

        let baseline = try GraphStoreBinary.peakMemory([store, ".entities"])
        #expect(baseline.status == 0)
        for mode in ["csv", "table", "json"] {
            let rows = try GraphStoreBinary.peakMemory(["--mode", mode, store, ".rows Book"])
            #expect(rows.status == 0)
            #expect(rows.kilobytes - baseline.kilobytes < 5_000, "\(mode): \(rows.kilobytes) KB against \(baseline.kilobytes) KB for .entities")
        }
    }
}
