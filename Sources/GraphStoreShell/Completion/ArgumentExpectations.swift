/// What TAB may offer after the words typed so far, read from the command's declared
/// arguments (``ArgumentSyntax``): the words of the declaration that can come next, with
/// the entity named before them and, for a placeholder that takes the rest of the line
/// (`PREDICATE`), where its text begins.
///
/// ```swift
/// let next = ArgumentExpectations(OpenCommand.command.arguments, after: ["--model"])
/// next.words.map(\.word)   // [.placeholder(PATH)]
/// ```
struct ArgumentExpectations {
    /// A word that may come next.
    struct Expected {
        var word: WordChoice
        /// The entity named before it (for key paths and `key=value`).
        var entity: String?
        /// For a placeholder that takes the rest of the line: the typed word its text
        /// begins at (`words.count` when it begins at the word being typed).
        var restOfLineFrom: Int?
    }

    /// The words that may come next, in the order of the declaration, flags last.
    private(set) var words: [Expected] = []

    /// What may follow `typed`, the words finished after the command's name.
    init(_ syntax: ArgumentSyntax, after typed: [String]) {
        // `desc, title`: the separator between repetitions (a comma, the only one declared)
        // is a word of its own, as the declaration reads it.
        var pieces: [(text: String, word: Int)] = []
        for (index, word) in typed.enumerated() {
            if word.count > 1, word.hasSuffix(",") {
                pieces += [(String(word.dropLast()), index), (",", index)]
            } else {
                pieces.append((word, index))
            }
        }
        let flags = ArgumentMatcher.takeFlags(pieces.map(\.text), declared: syntax.flags)
        if let value = flags.awaitingValue {
            words = [Expected(word: .placeholder(value))]
            return
        }
        let matcher = ArgumentMatcher(mode: .completing)
        var states = matcher.start(syntax)
        for position in flags.positions {
            states = matcher.advance(states, word: pieces[position].text, at: position)
        }
        for state in states {
            if let rest = state.restOfLine {
                words.append(Expected(word: .placeholder(rest.placeholder), entity: state.entity, restOfLineFrom: pieces[rest.word].word))
                continue
            }
            for case (.choice(let choice), _) in matcher.heads(state) {
                var expected = Expected(word: choice, entity: state.entity)
                if case .placeholder(let placeholder) = choice, placeholder.takesRestOfLine { expected.restOfLineFrom = typed.count }
                words.append(expected)
            }
        }
        guard !states.isEmpty, states.allSatisfy({ $0.restOfLine == nil }) else { return }
        for flag in syntax.flags {
            switch flag {
            case .flag(let name) where !flags.flags.contains(name), .requiredFlag(let name) where !flags.flags.contains(name):
                words.append(Expected(word: .literal(name)))
            case .option(let name, _) where flags.options[name] == nil, .requiredOption(let name, _) where flags.options[name] == nil,
                .repeatableOption(let name, _):
                words.append(Expected(word: .literal(name)))
            default: break
            }
        }
    }
}
