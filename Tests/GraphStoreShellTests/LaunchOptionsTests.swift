import Testing

@testable import GraphStoreShell

/// The command line.
@Suite struct LaunchOptionsTests {
    @Test func commandsAndFilesKeepTheirOrder() throws {
        let options = try LaunchOptions.parse(["-c", ".mode csv", "store.sqlite", "-f", "a.gs", "--command=.entities", "-c", ".rows Book", ".schema"])
        #expect(options.store == "store.sqlite")
        #expect(options.actions == [.command(".mode csv"), .file("a.gs"), .command(".entities"), .command(".rows Book"), .argument(".schema")])
    }

    @Test func flags() throws {
        let options = try LaunchOptions.parse([
            "--json", "--no-headers", "--nullvalue", "NULL", "--no-bail", "--write", "--model", "M.xcdatamodeld", "--init", "i.gs",
            "--no-rc", "s",
        ])
        #expect(options.mode == .json)
        #expect(options.headers == false)
        #expect(options.nullText == "NULL")
        #expect(options.bail == false)
        #expect(options.write)
        #expect(options.model == "M.xcdatamodeld")
        #expect(options.initFile == "i.gs")
        #expect(!options.readsRCFile)
        #expect(try LaunchOptions.parse(["--mode=markdown"]).mode == .markdown)
        #expect(try LaunchOptions.parse(["--mode", "tabs"]).mode == .tsv)
        #expect(try LaunchOptions.parse(["--bail"]).bail == true)
        #expect(try LaunchOptions.parse([]).bail == nil)
        #expect(try LaunchOptions.parse(["-h"]).showsHelp)
        #expect(try LaunchOptions.parse(["--version"]).showsVersion)
        #expect(try LaunchOptions.parse(["--", "-odd.sqlite"]).store == "-odd.sqlite")
    }

    /// sqlite3's flags, with one dash or two, mean what they mean in sqlite3.
    @Test func sqlite3Flags() throws {
        let options = try LaunchOptions.parse([
            "-header", "-csv", "-separator", ";", "-newline", "\r\n", "-nullvalue", "-", "-cmd", ".mode csv", "-bail", "-echo",
            "-readonly", "s.sqlite", "-c", ".rows Book",
        ])
        #expect(options.headers == true)
        #expect(options.mode == .csv)
        #expect(options.separator == ";")
        #expect(options.newline == "\r\n")
        #expect(options.nullText == "-")
        #expect(options.initialCommands == [".mode csv"])
        #expect(options.bail == true)
        #expect(options.echo)
        #expect(options.readOnly && !options.write)
        #expect(options.actions == [.command(".rows Book")])
        for (flag, mode) in [
            ("-json", OutputMode.json), ("-line", .line), ("-list", .list), ("-box", .box), ("-table", .table), ("-markdown", .markdown),
            ("-tabs", .tsv), ("-html", .html), ("-column", .table), ("--csv", .csv), ("--list", .list),
        ] {
            #expect(try LaunchOptions.parse([flag]).mode == mode, "\(flag)")
        }
        #expect(try LaunchOptions.parse(["-noheader"]).headers == false)
        #expect(try LaunchOptions.parse(["--header"]).headers == true)
        #expect(try LaunchOptions.parse(["-version"]).showsVersion)
        #expect(try LaunchOptions.parse(["-help"]).showsHelp)
        #expect(try LaunchOptions.parse(["--discard-unsaved"]).discardsUnsaved)
        // Bundled short flags, each without a value.
        let bundle = try LaunchOptions.parse(["-hV"])
        #expect(bundle.showsHelp && bundle.showsVersion)
    }

    /// As in sqlite3, a mode chosen after `-separator` puts the separator back.
    @Test func aModeAfterASeparatorResetsIt() throws {
        #expect(try LaunchOptions.parse(["-separator", ";", "-csv"]).separator == nil)
        #expect(try LaunchOptions.parse(["-csv", "-separator", ";"]).separator == ";")
    }

    @Test(arguments: [
        (["--bogus"], "unknown option --bogus"),
        (["-jsn"], "unknown option -jsn; did you mean -json?"),
        (["--wirte"], "unknown option --wirte; did you mean --write?"),
        (["--model=m", "--modle", "m"], "unknown option --modle; did you mean --mode or --model?"),
        (["-hedaer"], "unknown option -hedaer; did you mean -header?"),
        // A value is never glued to a short option: `-csv` is not `-c sv`, nor `-cfoo` `-c foo`.
        (["-c.rows", "Book"], "unknown option -c.rows"),
        // Bundled letters must each be a flag without a value.
        (["-hc", ".x"], "unknown option -hc"),
        (["--write", "-readonly"], "--write and --readonly cannot be given together"),
        (["-c"], "-c needs a value"),
        (["--mode", "fancy"], "no output mode fancy"),
        (["--write=yes"], "--write takes no value"),
    ])
    func usageErrorsExitWithTwo(arguments: [String], message: String) {
        do {
            _ = try LaunchOptions.parse(arguments)
            Issue.record("\(arguments) parsed")
        } catch {
            #expect(error.exitCode == ExitStatus.usage)
            #expect(error.message.hasPrefix(message))
            #expect(error.message.hasSuffix("Try 'graphstore --help' for more information."))
        }
    }

    @Test func helpDocumentsEveryOptionAndExitCode() {
        for option in LaunchOptions.longOptions { #expect(HelpText.text.contains(option), "\(option)") }
        for line in ["0  success", "1  a command failed", "2  usage error", "3  validate found", "4  the store could not be opened", "5  a script ended with unsaved changes"] {
            #expect(HelpText.text.contains(line))
        }
    }

    @Test func historyPath() {
        #expect(Launcher.historyPath(LaunchEnvironment(home: "/home/a")) == "/home/a/.graphstore_history")
        #expect(Launcher.historyPath(LaunchEnvironment(home: "/home/a", history: "/tmp/h")) == "/tmp/h")
        #expect(Launcher.historyPath(LaunchEnvironment(home: "/home/a", history: "")) == nil)
        #expect(Launcher.historyPath(LaunchEnvironment()) == nil)
    }

    @Test func colourFollowsNoColor() {
        #expect(TerminalInfo.allowsColour(LaunchEnvironment(term: "xterm")))
        #expect(!TerminalInfo.allowsColour(LaunchEnvironment(noColor: "1", term: "xterm")))
        #expect(TerminalInfo.allowsColour(LaunchEnvironment(noColor: "", term: "xterm")))
        #expect(!TerminalInfo.allowsColour(LaunchEnvironment(term: "dumb")))
        // Not a terminal: no terminal information at all, so no fitting and no colour.
        #expect(TerminalInfo(fileDescriptor: -1, environment: LaunchEnvironment()) == nil)
    }
}
