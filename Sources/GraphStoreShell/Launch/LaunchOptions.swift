import ArgumentParser
/// The `graphstore` command line, parsed.
///
/// ```
/// graphstore [OPTIONS] [STORE [COMMAND...]]
/// ```
///
/// Commands (`-c`, `-f`, and words after STORE) run in the order given, then graphstore
/// exits; without any it reads standard input (a prompt with line editing at a terminal).
///
/// ```swift
/// let options = try LaunchOptions.parse(["--json", "Books.sqlite", "-c", ".entities"])
/// options.store     // "Books.sqlite"
/// options.actions   // [.command(".entities")]
/// ```
public struct LaunchOptions: Sendable, Equatable {
    /// A command to run, or a script file to run.
    public enum Action: Sendable, Equatable {
        case command(String)
        case file(String)
    }

    /// The store to open.
    public var store: String?
    /// `-c`, `-f` and trailing commands, in order.
    public var actions: [Action] = []
    /// `--mode`, `--json`.
    public var mode: OutputMode?
    /// `--headers`, `--no-headers`.
    public var headers: Bool?
    /// `--nullvalue`.
    public var nullText: String?
    /// `--bail`, `--no-bail` (nil: on unless interactive).
    public var bail: Bool?
    /// `--write`.
    public var write = false
    /// `--model`.
    public var model: String?
    /// `--init`: a script run first, instead of `~/.graphstorerc`.
    public var initFile: String?
    /// False with `--no-rc`.
    public var readsRCFile = true
    /// `--help`.
    public var showsHelp = false
    /// `--version`.
    public var showsVersion = false

    /// Options with every default.
    public init() {}

    /// Parses the arguments (without the program name). Errors are usage errors (exit 2).
    public static func parse(_ arguments: [String]) throws(ShellError) -> LaunchOptions {
        let parsed: CommandLineArguments
        do {
            parsed = try CommandLineArguments.parse(arguments)
        } catch {
            if CommandLineArguments.exitCode(for: error) == .success {
                var options = LaunchOptions()
                options.showsHelp = true
                return options
            }
            throw usage(CommandLineArguments.message(for: error))
        }
        var options = LaunchOptions()
        options.store = parsed.store
        options.actions = ordered(commands: parsed.commands, files: parsed.files, in: arguments)
        options.actions += parsed.trailingCommands.map(Action.command)
        if let mode = parsed.mode {
            do {
                options.mode = try ModeCommand.mode(named: mode)
            } catch {
                throw usage(error.message)
            }
        }
        if parsed.json { options.mode = .json }
        options.headers = parsed.headers
        options.nullText = parsed.nullvalue
        options.bail = parsed.bail
        options.write = parsed.write
        options.model = parsed.model
        options.initFile = parsed.initFile
        options.readsRCFile = !parsed.noRC
        options.showsVersion = parsed.version
        return options
    }

    /// `graphstore --help`.
    public static var helpText: String { CommandLineArguments.helpMessage(columns: 80) + "\n" }

    /// swift-argument-parser keeps the values of `-c` and of `-f` in order but not how they
    /// interleave; the arguments say it. A value never looks like an option (the parser
    /// rejects that), so every `-c`/`-f` token before `--` is one occurrence.
    private static func ordered(commands: [String], files: [String], in arguments: [String]) -> [Action] {
        var commands = commands[...]
        var files = files[...]
        var actions: [Action] = []
        for argument in arguments {
            if argument == "--" { break }
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if name == "-c" || name == "--command", let command = commands.popFirst() {
                actions.append(.command(command))
            } else if name == "-f" || name == "--file", let file = files.popFirst() {
                actions.append(.file(file))
            }
        }
        // Nothing is dropped, whatever form an option took.
        return actions + commands.map(Action.command) + files.map(Action.file)
    }

    /// Every long option `--help` lists, for the tests that check the manual against it.
    static var longOptions: [String] {
        let help = helpText
        return help.ranges(of: /--[a-z][a-z-]*/).map { String(help[$0]) }
    }

    private static func usage(_ message: String) -> ShellError {
        ShellError("\(message)\nTry 'graphstore --help' for more information.", exitCode: ExitStatus.usage)
    }
}
