import Foundation
import Testing

/// sqlite3's command-line flags, typed as sqlite3 users type them, run by the built binary:
/// what they print and the exit status.
@Suite struct CommandLineFlagsTests {
    static let store = GraphStoreBinary.exampleStore

    /// `-header -csv STORE -c …` used to read `-header` as `-h eader` (help, exit 0) and
    /// `-csv` as `-c sv`.
    @Test func sqlite3FlagsWithOneDash() throws {
        let result = try ScriptTests.run(["-header", "-csv", Self.store, "-c", ".rows BookCategory"])
        #expect(result.status == 0)
        #expect(result.stdout == "Z_PK,Z_ENT,Z_OPT,ZNAME\n1,2,1,Fiction\n2,2,1,Biography\n")
        #expect(result.stderr.isEmpty)
        let list = try ScriptTests.run(["-list", "-noheader", "-nullvalue", "NULL", Self.store, ".entities"])
        #expect(list.stdout == "Book|ZBOOK|1|NULL|3\nBookCategory|ZBOOKCATEGORY|2|NULL|2\nPage|ZPAGE|3|NULL|0\n")
        let separated = try ScriptTests.run(["--list", "--separator", ";", "--newline", "\r\n", "--noheader", Self.store, ".rows BookCategory"])
        #expect(separated.stdout == "1;2;1;Fiction\r\n2;2;1;Biography\r\n")
        let html = try ScriptTests.run(["-html", Self.store, ".rows BookCategory 1"])
        #expect(html.stdout == "<TR><TH>Z_PK</TH>\n<TH>Z_ENT</TH>\n<TH>Z_OPT</TH>\n<TH>ZNAME</TH>\n</TR>\n<TR><TD>1</TD>\n<TD>2</TD>\n<TD>1</TD>\n<TD>Fiction</TD>\n</TR>\n")
        let line = try ScriptTests.run(["-line", Self.store, ".rows BookCategory 1"])
        #expect(line.stdout == " Z_PK = 1\nZ_ENT = 2\nZ_OPT = 1\nZNAME = Fiction\n")
        for flag in ["-json", "--json"] {
            #expect(try ScriptTests.run([flag, Self.store, ".rows Page"]).stdout == "[]\n")
        }
    }

    /// `-cmd` runs first and standard input is still read after it; `-echo` prints each
    /// command; `-bail` stops at the first error.
    @Test func cmdEchoAndBail() throws {
        let result = try ScriptTests.run(["-cmd", ".mode csv", "-echo", Self.store], input: ".rows BookCategory 1\n")
        #expect(result.stdout == ".mode csv\n.rows BookCategory 1\nZ_PK,Z_ENT,Z_OPT,ZNAME\n1,2,1,Fiction\n")
        let bailing = try ScriptTests.run(["-bail", Self.store], input: ".rows Nope\n.print not reached\n")
        #expect(bailing.status == 1)
        #expect(bailing.stdout.isEmpty)
    }

    @Test func versionAndHelpWithOneDashExitZero() throws {
        let version = try ScriptTests.run(["-version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("graphstore "))
        let help = try ScriptTests.run(["-help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--discard-unsaved"))
    }

    /// An unknown option exits 2 having written nothing — no output, no history, the store
    /// untouched — and names the closest option there is.
    @Test(arguments: [
        (["--wirte"], "unknown option --wirte; did you mean --write?"),
        (["--modle", "x.xcdatamodeld"], "unknown option --modle; did you mean --mode or --model?"),
        (["-hedaer"], "unknown option -hedaer; did you mean -header?"),
        (["-csvv"], "unknown option -csvv; did you mean -csv?"),
        (["--write", "--readonly"], "--write and --readonly cannot be given together"),
    ])
    func unknownOptionsExitTwoAndWriteNothing(arguments: [String], message: String) throws {
        let home = try ScriptTests.home()
        let store = try GraphStoreBinary.copy(Self.store)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let result = try ScriptTests.run(arguments + [store, ".entities"], home: home)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "graphstore: \(message)\nTry 'graphstore --help' for more information.\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        let sidecars = try FileManager.default.contentsOfDirectory(atPath: (store as NSString).deletingLastPathComponent)
        #expect(sidecars == [(store as NSString).lastPathComponent])
    }

    /// A script that ends with unsaved changes says so and exits 5, unless it was run
    /// with `--discard-unsaved`.
    @Test func scriptsEndingWithUnsavedChangesFail() throws {
        let store = try GraphStoreBinary.copy(Self.store)
        let forgotten = try ScriptTests.run(["--write", store, "-c", "insert Book title=Forgotten"])
        #expect(forgotten.status == 5)
        #expect(forgotten.stderr.contains("graphstore: warning: 1 unsaved change (1 inserted) discarded"))
        let piped = try ScriptTests.run(["--write", store], input: "insert Book title=Forgotten\n")
        #expect(piped.status == 5)
        let meant = try ScriptTests.run(["--write", "--discard-unsaved", store, "-c", "insert Book title=Dropped"])
        #expect(meant.status == 0)
        let saved = try ScriptTests.run(["--write", store, "-c", "insert Book title=Kept", "-c", "save"])
        #expect(saved.status == 0)
        #expect(saved.stderr.isEmpty)
        // A script that failed keeps its own status.
        let failed = try ScriptTests.run(["--write", store, "-c", "insert Book title=X", "-c", ".rows Nope"])
        #expect(failed.status == 1)
    }
}
