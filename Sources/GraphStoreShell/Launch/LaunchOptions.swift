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
        var options = LaunchOptions()
        var positional: [String] = []
        var index = 0
        var onlyPositional = false

        func value(for option: String, inline: String?) throws(ShellError) -> String {
            if let inline { return inline }
            index += 1
            guard index < arguments.count else { throw usage("\(option) needs a value") }
            return arguments[index]
        }

        while index < arguments.count {
            let argument = arguments[index]
            defer { index += 1 }
            if onlyPositional || argument == "-" || !argument.hasPrefix("-") {
                positional.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositional = true
                continue
            }
            // --name=value and -cVALUE forms.
            var name = argument
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            } else if !argument.hasPrefix("--"), argument.count > 2 {
                name = String(argument.prefix(2))
                inline = String(argument.dropFirst(2))
            }
            switch name {
            case "-c", "--command": options.actions.append(.command(try value(for: name, inline: inline)))
            case "-f", "--file": options.actions.append(.file(try value(for: name, inline: inline)))
            case "--mode":
                let text = try value(for: name, inline: inline)
                do {
                    options.mode = try ModeCommand.mode(named: text)
                } catch {
                    throw usage(error.message)
                }
            case "--json": options.mode = .json
            case "--headers": options.headers = true
            case "--no-headers": options.headers = false
            case "--nullvalue": options.nullText = try value(for: name, inline: inline)
            case "--bail": options.bail = true
            case "--no-bail": options.bail = false
            case "--write": options.write = true
            case "--model": options.model = try value(for: name, inline: inline)
            case "--init": options.initFile = try value(for: name, inline: inline)
            case "--no-rc": options.readsRCFile = false
            case "-h", "--help": options.showsHelp = true
            case "-V", "--version": options.showsVersion = true
            default:
                // sqlite3 spells long options with one dash (-json, -bail).
                let long = "-" + argument
                let hint = longOptions.contains(where: { long.hasPrefix($0) }) ? " (did you mean \(long)?)" : ""
                throw usage("unknown option \(argument)\(hint)")
            }
            if inline != nil, ["--json", "--headers", "--no-headers", "--bail", "--no-bail", "--write", "--no-rc", "--help", "--version"].contains(name) {
                throw usage("\(name) takes no value")
            }
        }
        if let store = positional.first {
            options.store = store
            // sqlite3's habit: `graphstore STORE .entities` runs the command and exits.
            options.actions += positional.dropFirst().map(Action.command)
        }
        return options
    }

    static let longOptions = [
        "--command", "--file", "--mode", "--json", "--headers", "--no-headers", "--nullvalue", "--bail", "--no-bail",
        "--write", "--model", "--init", "--no-rc", "--help", "--version",
    ]

    private static func usage(_ message: String) -> ShellError {
        ShellError("\(message)\nTry 'graphstore --help' for more information.", exitCode: ExitStatus.usage)
    }
}
