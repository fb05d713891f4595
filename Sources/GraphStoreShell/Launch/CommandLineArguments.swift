import ArgumentParser

/// `graphstore`'s flags as swift-argument-parser declares, checks and documents them.
///
/// `LaunchOptions.parse` turns them into ``LaunchOptions``; this type only describes the
/// command line, so that `--help` and the usage errors come from one place.
struct CommandLineArguments: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graphstore",
        abstract: "A shell for Core Data SQLite stores.",
        usage: "graphstore [OPTIONS] [STORE [COMMAND...]]",
        discussion: """
            Opens STORE (read-only unless --write) with the model it carries, or --model. \
            Commands given with -c, -f or after STORE run in order, then graphstore exits; \
            otherwise commands are read from standard input: at a terminal with a prompt, \
            line editing, history and TAB completion; from a pipe silently. Type .help at \
            the prompt for the commands.

            Exit status:
              0  success
              1  a command failed (or a script could not be read)
              2  usage error (a wrong option or value)
              3  validate found validation failures
              4  the store could not be opened

            Environment:
              GRAPHSTORE_HISTORY  history file (default ~/.graphstore_history; empty: none)
              NO_COLOR            when set, no colour
              EDITRC              libedit settings (default ~/.editrc; "bind -v": vi keys)

            Examples:
              graphstore App.sqlite                       # interactive
              graphstore App.sqlite .entities             # one command, as with sqlite3
              graphstore --json App.sqlite -c '.rows Book 10'
              graphstore --no-rc App.sqlite < checks.graphstore

            See graphstore(1) for the full manual.
            """,
        helpNames: [.short, .long]
    )

    @Option(name: [.customShort("c"), .customLong("command")], help: ArgumentHelp("Run CMD (repeatable; standard input is then not read).", valueName: "CMD"))
    var commands: [String] = []

    @Option(name: [.customShort("f"), .customLong("file")], help: ArgumentHelp("Run the commands in FILE (repeatable).", valueName: "FILE"))
    var files: [String] = []

    @Option(help: ArgumentHelp("Output mode: table box csv tsv json jsonl line markdown.", valueName: "MODE"))
    var mode: String?

    @Flag(help: "Same as --mode json.")
    var json = false

    @Flag(inversion: .prefixedNo, help: "Print header rows (the default), or leave them out.")
    var headers: Bool?

    @Option(help: ArgumentHelp("Show NULL as TEXT.", valueName: "TEXT"))
    var nullvalue: String?

    @Flag(inversion: .prefixedNo, help: "Stop at the first error (the default when not interactive), or carry on and exit with the last failure's status.")
    var bail: Bool?

    @Flag(help: "Allow changes to the store.")
    var write = false

    @Option(help: ArgumentHelp("Open the store with this model (.xcdatamodeld, .xcdatamodel, .mom).", valueName: "PATH"))
    var model: String?

    @Option(name: .customLong("init"), help: ArgumentHelp("Run FILE first, instead of ~/.graphstorerc.", valueName: "FILE"))
    var initFile: String?

    @Flag(name: .customLong("no-rc"), help: "Do not read ~/.graphstorerc.")
    var noRC = false

    @Flag(name: [.customShort("V"), .long], help: "Show the version and exit.")
    var version = false

    @Argument(help: ArgumentHelp("The store to open.", valueName: "STORE"))
    var store: String?

    @Argument(help: ArgumentHelp("Commands to run after opening STORE, as with sqlite3.", valueName: "COMMAND"))
    var trailingCommands: [String] = []
}
