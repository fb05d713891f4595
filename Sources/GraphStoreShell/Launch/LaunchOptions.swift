/// The `graphstore` command line, parsed.
///
/// ```
/// graphstore [OPTIONS] [STORE [COMMAND...]]
/// ```
///
/// Commands (`-c`, `-f`, and words after STORE) run in the order given, then graphstore
/// exits; without any it reads standard input (a prompt with line editing at a terminal).
/// Long options take one dash or two (`-json`, `--json`), as sqlite3's do; `--name=value`
/// gives a value in the same word. Short options bundle (`-hV`) only when every letter is
/// a flag without a value. An option that is not known is a usage error naming the
/// closest one that is.
///
/// ```swift
/// let options = try LaunchOptions.parse(["-json", "Books.sqlite", "-c", ".entities"])
/// options.store     // "Books.sqlite"
/// options.mode      // .json
/// options.actions   // [.command(".entities")]
/// ```
public struct LaunchOptions: Sendable, Equatable {
    /// A command to run, or a script file to run.
    public enum Action: Sendable, Equatable {
        /// `-c COMMAND`.
        case command(String)
        /// `-f FILE`.
        case file(String)
        /// A command typed after STORE (sqlite3's habit), which messages name as a command,
        /// not as a line of `-c`.
        case argument(String)
    }

    /// The store to open.
    public var store: String?
    /// `-c`, `-f` and trailing commands, in order.
    public var actions: [Action] = []
    /// `-cmd`: commands run first (after the rc file), before the actions or standard input,
    /// which is still read afterwards when there are no actions (as sqlite3's `-cmd`).
    public var initialCommands: [String] = []
    /// `--mode`, `--json`, `-csv`, …
    public var mode: OutputMode?
    /// `--json-document`: standard output is one JSON document for the whole run (see
    /// `JSONDocument`): an array with an entry per command, or with `--jsonl` one line per
    /// row, text or error, each tagged with its command. It means `--json` unless `--jsonl`
    /// is given; another mode is refused.
    public var jsonDocument = false
    /// `--headers`, `--no-headers` (`-header`, `-noheader`).
    public var headers: Bool?
    /// `--nullvalue`.
    public var nullText: String?
    /// `--separator`: between the values of list and csv rows. A mode chosen after it puts
    /// it back, as in sqlite3 (`-separator ';' -csv` writes commas).
    public var separator: String?
    /// `--newline`: after each list and csv row.
    public var newline: String?
    /// `--bail`, `--no-bail` (nil: on unless interactive).
    public var bail: Bool?
    /// `--echo`.
    public var echo = false
    /// `--write`.
    public var write = false
    /// `--readonly` (the default; refused together with `--write`).
    public var readOnly = false
    /// `--strict`: a warning (a value that could not be read, a storage anomaly) makes the exit status 6.
    public var strict = false
    /// `--discard-unsaved`: a script may end with unsaved changes without failing.
    public var discardsUnsaved = false
    /// `--model`.
    public var model: String?
    /// `--browse-mismatch`: a store that does not match `--model` opens read-only with its
    /// own model, the mismatch said first.
    public var browsesMismatch = false
    /// `--create`: make STORE, empty, for `--model`'s current version (needs `--write`).
    public var create = false
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

    /// What an option does.
    private enum Option {
        case command, file, cmd, mode, modeFlag(OutputMode), jsonDocument, headers(Bool), nullValue, separator, newline
        case bail(Bool), echo, write, readOnly, discardUnsaved, strict, create, model, browseMismatch, initFile, noRC, help, version

        var takesValue: Bool {
            switch self {
            case .command, .file, .cmd, .mode, .nullValue, .separator, .newline, .model, .initFile: true
            default: false
            }
        }
    }

    /// Every long option, by name without its dashes: graphstore's own and sqlite3's.
    private static let long: [String: Option] = [
        "command": .command, "file": .file, "cmd": .cmd, "mode": .mode,
        "json": .modeFlag(.json), "jsonl": .modeFlag(.jsonl), "csv": .modeFlag(.csv), "tsv": .modeFlag(.tsv),
        "tabs": .modeFlag(.tsv), "line": .modeFlag(.line), "list": .modeFlag(.list), "box": .modeFlag(.box),
        "table": .modeFlag(.table), "column": .modeFlag(.table), "markdown": .modeFlag(.markdown), "html": .modeFlag(.html),
        "json-document": .jsonDocument,
        "headers": .headers(true), "header": .headers(true), "no-headers": .headers(false), "noheader": .headers(false),
        "nullvalue": .nullValue, "separator": .separator, "newline": .newline,
        "bail": .bail(true), "no-bail": .bail(false), "echo": .echo,
        "write": .write, "readonly": .readOnly, "discard-unsaved": .discardUnsaved, "strict": .strict, "create": .create,
        "model": .model, "browse-mismatch": .browseMismatch, "init": .initFile, "no-rc": .noRC, "help": .help, "version": .version,
    ]

    /// The short options: `-c CMD`, `-f FILE`, `-h`, `-V`. A list, not a dictionary: the
    /// first dictionary keyed by `Character` made the runtime scan every protocol conformance
    /// in the binary for `Character: Hashable`, a twentieth of a `graphstore STORE .entities`.
    private static let shortOptions: [(letter: Character, option: Option)] = [("c", .command), ("f", .file), ("h", .help), ("V", .version)]

    private static func short(_ letter: Character) -> Option? {
        shortOptions.first { $0.letter == letter }?.option
    }

    /// The long options as `--help` and the manual name them (synonyms left out).
    static let longOptions = [
        "--command", "--file", "--cmd", "--mode", "--json", "--csv", "--tsv", "--line", "--list", "--box", "--table",
        "--markdown", "--html", "--json-document", "--headers", "--no-headers", "--nullvalue", "--separator", "--newline", "--bail",
        "--no-bail", "--echo", "--write", "--readonly", "--discard-unsaved", "--strict", "--create", "--model", "--browse-mismatch", "--init", "--no-rc",
        "--help", "--version",
    ]

    /// Whether a word is an option that takes a value in the next word (`--model`, `-c`).
    static func takesValue(_ word: String) -> Bool {
        guard let recognised = try? recognise(word), recognised.count == 1 else { return false }
        return recognised[0].1.takesValue && recognised[0].2 == nil
    }

    /// Parses the arguments (without the program name). Errors are usage errors (exit 2).
    public static func parse(_ arguments: [String]) throws(ShellError) -> LaunchOptions {
        let arguments = Subcommands.rewrite(arguments)
        var options = LaunchOptions()
        var positional: [String] = []
        var index = 0
        var onlyPositional = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositional || argument == "-" || !argument.hasPrefix("-") {
                positional.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositional = true
                continue
            }
            for (name, option, inline) in try recognise(argument) {
                var value: String?
                if option.takesValue {
                    if let inline {
                        value = inline
                    } else {
                        guard index < arguments.count else { throw usage("\(name) needs a value") }
                        value = arguments[index]
                        index += 1
                    }
                } else if inline != nil {
                    throw usage("\(name) takes no value")
                }
                try options.apply(option, value: value ?? "")
            }
        }
        if options.write, options.readOnly { throw usage("--write and --readonly cannot be given together") }
        if options.create, !options.write || options.model == nil { throw usage("--create needs --write and --model") }
        if options.jsonDocument {
            switch options.mode {
            case nil: options.mode = .json
            case .json?, .jsonl?: break
            case let mode?: throw usage("--json-document writes JSON; it cannot be given with --mode \(mode.rawValue) (use --json or --jsonl)")
            }
        }
        if let store = positional.first {
            options.store = store
            // sqlite3's habit: `graphstore STORE .entities` runs the command and exits.
            options.actions += positional.dropFirst().map(Action.argument)
        }
        return options
    }

    /// The options one word names, each with the name it was typed as and a value given in
    /// the word (`--mode=csv`): a long option (one dash or two), a short one, or short
    /// flags bundled (`-hV`).
    private static func recognise(_ argument: String) throws(ShellError) -> [(String, Option, String?)] {
        let doubleDash = argument.hasPrefix("--")
        var name = String(argument.dropFirst(doubleDash ? 2 : 1))
        var inline: String?
        if let equals = name.firstIndex(of: "="), long[String(name[..<equals])] != nil {
            inline = String(name[name.index(after: equals)...])
            name = String(name[..<equals])
        }
        if name.count > 1 || doubleDash, let option = long[name] { return [((doubleDash ? "--" : "-") + name, option, inline)] }
        if !doubleDash, name.count == 1, let first = name.first, let option = short(first) { return [(argument, option, nil)] }
        // Bundled flags: every letter a short option without a value.
        if !doubleDash, name.count > 1, name.allSatisfy({ short($0).map { !$0.takesValue } ?? false }) {
            return name.compactMap { letter in short(letter).map { ("-\(letter)", $0, nil) } }
        }
        let dashes = doubleDash ? "--" : "-"
        let known = long.keys.map { dashes + $0 } + (doubleDash ? [] : shortOptions.map { "-\($0.letter)" })
        let typed = String(argument.prefix { $0 != "=" })
        throw usage("unknown option \(typed)" + Suggestion.didYouMean(typed, among: known.sorted()))
    }

    private mutating func apply(_ option: Option, value: String) throws(ShellError) {
        switch option {
        case .command: actions.append(.command(value))
        case .file: actions.append(.file(value))
        case .cmd: initialCommands.append(value)
        case .mode:
            do {
                select(try ModeCommand.mode(named: value))
            } catch {
                throw Self.usage(error.message)
            }
        case .modeFlag(let mode): select(mode)
        case .jsonDocument: jsonDocument = true
        case .headers(let on): headers = on
        case .nullValue: nullText = value
        case .separator: separator = value
        case .newline: newline = value
        case .bail(let on): bail = on
        case .echo: echo = true
        case .write: write = true
        case .readOnly: readOnly = true
        case .discardUnsaved: discardsUnsaved = true
        case .strict: strict = true
        case .create: create = true
        case .model: model = value
        case .browseMismatch: browsesMismatch = true
        case .initFile: initFile = value
        case .noRC: readsRCFile = false
        case .help: showsHelp = true
        case .version: showsVersion = true
        }
    }

    /// A mode puts the separators given before it back, as sqlite3's mode flags do.
    private mutating func select(_ mode: OutputMode) {
        self.mode = mode
        separator = nil
        newline = nil
    }

    private static func usage(_ message: String) -> ShellError {
        ShellError("\(message)\nTry 'graphstore --help' for more information.", exitCode: ExitStatus.usage)
    }
}
