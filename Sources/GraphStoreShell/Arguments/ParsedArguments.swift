/// The arguments of one command line, checked against the command's ``ArgumentSyntax``
/// before the command runs, and read in its body by what they are, not by position.
///
/// ```swift
/// let mapping = try shell.mapping(try arguments.word(entity))
/// let limit = arguments.number(rowLimit)              // nil when left out
/// let force = arguments.has("--force")
/// ```
public struct ParsedArguments: Sendable {
    private let command: String
    private let syntax: ArgumentSyntax
    /// The text after the command's name, as typed.
    private let typed: Substring
    private let words: [CommandWord]
    /// The positions of the words each placeholder or literal took.
    private let bound: [String: [Int]]
    private let flags: Set<String>
    private let options: [String: Int]
    private let repeatableOptions: [String: [Int]]

    /// Reads `words`, typed as `text` after the command `name`: the usage error when they do
    /// not fit, or a value error naming the placeholder (`.rows: LIMIT must be a whole
    /// number, not x`).
    init(_ words: [CommandWord], text: Substring, command name: String, syntax: ArgumentSyntax) throws(ShellError) {
        command = name
        self.syntax = syntax
        typed = text
        self.words = words
        // The usage text is written only for an error: most lines fit.
        var usageError: ShellError { ShellError("usage: \(syntax.usage(of: name))") }
        let flagWords = ArgumentMatcher.takeFlags(words.map(\.text), declared: syntax.flags)
        guard !flagWords.repeated, flagWords.awaitingValue == nil else { throw usageError }
        for required in syntax.requiredFlags where !flagWords.flags.contains(required) && flagWords.options[required] == nil {
            throw usageError
        }
        let matcher = ArgumentMatcher(mode: .validating)
        var states = matcher.start(syntax)
        for position in flagWords.positions {
            states = matcher.advance(states, word: words[position].text, at: position)
        }
        guard let fit = states.first(where: matcher.canEnd) else { throw usageError }
        var bound: [String: [Int]] = [:]
        // Each value with what it is called in an error: an option's value by the option.
        var checked: [(Placeholder, String, Int)] = []
        for (key, placeholder, word) in matcher.readings.all(endingAt: fit.lastReading) {
            bound[key, default: []].append(word)
            if let placeholder { checked.append((placeholder, placeholder.name, word)) }
        }
        for flag in syntax.flags {
            switch flag {
            case .option(let option, let value), .requiredOption(let option, let value):
                if let word = flagWords.options[option] { checked.append((value, "\(option) \(value.name)", word)) }
            case .repeatableOption(let option, let value):
                for word in flagWords.repeatableOptions[option] ?? [] { checked.append((value, "\(option) \(value.name)", word)) }
            default: continue
            }
        }
        for (placeholder, label, word) in checked {
            if let requirement = placeholder.requirement(for: words[word].text) {
                throw ShellError("\(name): \(label) must be \(requirement), not \(words[word].text)")
            }
        }
        self.bound = bound
        flags = flagWords.flags
        options = flagWords.options
        repeatableOptions = flagWords.repeatableOptions
    }

    /// The command's usage line.
    public var usage: String { syntax.usage(of: command) }

    /// The error a command throws when what it was given does not fit: `usage: …`. The
    /// declaration checks the words; commands that read their own clauses use it too.
    public var usageError: ShellError { ShellError("usage: \(usage)") }

    /// The word typed for `placeholder`, or nil when it was left out.
    public subscript(_ placeholder: Placeholder) -> String? {
        bound[placeholder.name]?.first.map { words[$0].text }
    }

    /// The word typed for a placeholder the declaration requires.
    public func word(_ placeholder: Placeholder) throws(ShellError) -> String {
        guard let word = self[placeholder] else { throw usageError }
        return word
    }

    /// Every word typed for a repeated placeholder (`ENTITY/KEY …`), in order.
    public func words(_ placeholder: Placeholder) -> [String] {
        (bound[placeholder.name] ?? []).map { words[$0].text }
    }

    /// The whole number typed for `placeholder` (checked against its range), or nil.
    public func number(_ placeholder: Placeholder) -> Int? {
        self[placeholder].flatMap { Int($0) }
    }

    /// The text from the first word typed for `placeholder` to the end of the line, as
    /// typed (quotes kept; trailing whitespace dropped), or nil when it was left out: a
    /// predicate, a `.parameter` value, `key=value` pairs, a command's own clauses.
    public func text(from placeholder: Placeholder) -> Substring? {
        guard let first = bound[placeholder.name]?.first else { return nil }
        var rest = typed[words[first].start...]
        while rest.last?.isWhitespace == true { rest = rest.dropLast() }
        return rest
    }

    /// Whether a literal word (`levels`, `count`, `on` or one of its synonyms) or a flag
    /// (`--force`) was typed.
    public func has(_ literal: String) -> Bool {
        flags.contains(literal) || bound[literal] != nil
    }

    /// The value typed after an option (`--model PATH`), or nil.
    public func value(of option: String) -> String? {
        options[option].map { words[$0].text }
    }

    /// The values typed after a repeatable option (`--mapping A --mapping B`), in order.
    public func values(of option: String) -> [String] {
        (repeatableOptions[option] ?? []).map { words[$0].text }
    }
}
