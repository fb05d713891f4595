import Testing

@testable import GraphStoreShell

/// The command line.
@Suite struct LaunchOptionsTests {
    @Test func commandsAndFilesKeepTheirOrder() throws {
        let options = try LaunchOptions.parse(["-c", ".mode csv", "store.sqlite", "-f", "a.gs", "--command=.entities", "-c.rows Book", ".schema"])
        #expect(options.store == "store.sqlite")
        #expect(options.actions == [.command(".mode csv"), .file("a.gs"), .command(".entities"), .command(".rows Book"), .command(".schema")])
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

    @Test(arguments: [
        (["--bogus"], "unknown option --bogus"),
        (["-json"], "unknown option -json (did you mean --json?)"),
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
        for line in ["0  success", "1  a command failed", "2  usage error", "3  validate found", "4  the store could not be opened"] {
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
