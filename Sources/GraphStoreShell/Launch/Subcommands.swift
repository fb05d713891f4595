/// `graphstore verify …` and `graphstore diff …`: a release pipeline's one-line forms of the
/// REPL's commands. The words are rewritten into ordinary options and one `-c` command, so
/// that the command runs exactly as at the prompt:
///
/// ```
/// graphstore verify --model App.xcdatamodeld --json seed.sqlite
///   = graphstore --model App.xcdatamodeld seed.sqlite -c 'verify --json'
/// graphstore diff --model App.xcdatamodeld old.sqlite new.sqlite --key Book=title
///   = graphstore --model App.xcdatamodeld old.sqlite -c "diff 'new.sqlite' --key 'Book=title'"
/// ```
enum Subcommands {
    /// The command's own options: those that take a value, and flags.
    private static let valueOptions: [String: Set<String>] = ["verify": ["--expect"], "diff": ["--key", "--script"]]
    private static let flags: [String: Set<String>] = ["verify": ["--json"], "diff": ["--json", "--exit-code"]]
    /// How many stores each names (the first is opened; the others go to the command).
    private static let stores = ["verify": 1, "diff": 2]

    /// The arguments with a leading `verify` or `diff` rewritten; others unchanged.
    static func rewrite(_ arguments: [String]) -> [String] {
        // The subcommand is the first word that is neither an option nor an option's value.
        var start = 0
        while start < arguments.count, arguments[start].hasPrefix("-"), arguments[start] != "-", arguments[start] != "--" {
            start += LaunchOptions.takesValue(arguments[start]) ? 2 : 1
        }
        guard start < arguments.count, let storeCount = stores[arguments[start]] else { return arguments }
        let name = arguments[start]
        var options = Array(arguments[..<start])
        var commandWords: [String] = []
        var naturalKeys: [String] = []
        var positional: [String] = []
        var index = start + 1
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            let (option, inline) = split(argument)
            if valueOptions[name]?.contains(option) == true {
                let value: String? = inline ?? (index < arguments.count ? arguments[index] : nil)
                if inline == nil, value != nil { index += 1 }
                if let value, option == "--key" {
                    // Given once or more on the command line, once (comma-separated) to the command.
                    naturalKeys.append(value)
                } else if let value {
                    commandWords += [option, quoted(value)]
                } else {
                    options.append(argument)   // left for the usage error
                }
            } else if flags[name]?.contains(option) == true {
                commandWords.append(option)
            } else if argument.hasPrefix("-"), argument != "-" {
                options.append(argument)
                if LaunchOptions.takesValue(argument), inline == nil, index < arguments.count {
                    options.append(arguments[index])
                    index += 1
                }
            } else {
                positional.append(argument)
            }
        }
        if !naturalKeys.isEmpty { commandWords += ["--key", quoted(naturalKeys.joined(separator: ","))] }
        let others = positional.dropFirst().prefix(storeCount - 1).map(quoted)
        let command = ([name] + others + commandWords).joined(separator: " ")
        // Words beyond the stores run after the command, as words after STORE always do.
        return options + ["-c", command, "--"] + positional.prefix(1) + positional.dropFirst(storeCount)
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    /// A word for the command line splitter: single-quoted, a backslash before a quote or
    /// backslash inside.
    private static func quoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
