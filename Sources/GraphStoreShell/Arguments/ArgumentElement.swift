/// One part of a command's argument declaration (see ``ArgumentSyntax``), in the notation
/// `.help` shows: `[…]` optional, `a | b` alternatives, `a|b` alternative words, `…`
/// repetition, UPPERCASE placeholders, literal words in lower case.
///
/// ```swift
/// // `.undo [levels [N]]`
/// [.optional([.literal("levels"), .optional([.value(Placeholder("N", .wholeNumber(from: 0)))])])]
/// ```
public indirect enum ArgumentElement: Sendable {
    /// One word: one of the choices (`on|off`, `fetch|count`, `FILE|off`, `ENTITY`).
    case word([WordChoice])
    /// Elements that may be left out: `[levels [N]]`.
    case optional([ArgumentElement])
    /// One of several sequences: `set NAME VALUE | unset NAME | list | clear`.
    case oneOf([[ArgumentElement]])
    /// The elements once or more, each time after the separator word when there is one
    /// (`ENTITY/KEY …`, `KEY [asc|desc] [nocase], …`).
    case repeated([ArgumentElement], separator: String? = nil)
    /// A flag, typed anywhere among the words (`[--force]`).
    case flag(String)
    /// An option and its value, typed anywhere among the words (`[--model PATH]`).
    case option(String, Placeholder)
    /// A flag that must be typed, anywhere among the words (`--plan`).
    case requiredFlag(String)
    /// An option that must be typed with its value, anywhere among the words (`--model BUNDLE`).
    case requiredOption(String, Placeholder)
    /// An option that may be typed any number of times, each with its value, anywhere
    /// among the words (`[--mapping FILE …]`).
    case repeatableOption(String, Placeholder)
    /// The rest of the line, handed to the command as typed under `placeholder` (possibly
    /// empty): the command parses it itself. `grammar` describes it for the usage line and
    /// completion (`[where PREDICATE] [sort …] [limit N]`).
    case clauses(Placeholder, grammar: [ArgumentElement])

    /// A literal word, or one of several (`fetch|count`).
    public static func literal(_ words: String...) -> ArgumentElement {
        .word(words.map { .literal($0) })
    }

    /// A placeholder (`ENTITY`).
    public static func value(_ placeholder: Placeholder) -> ArgumentElement {
        .word([.placeholder(placeholder)])
    }
}

/// One of the words an ``ArgumentElement/word(_:)`` may be.
public enum WordChoice: Sendable, Hashable {
    /// A word typed as it is (without regard to case), or one of its synonyms.
    case literal(String, also: [String] = [])
    /// A value.
    case placeholder(Placeholder)

    /// The literal word typed for this choice, or nil when `text` is not it.
    func literalMatch(_ text: String) -> String? {
        guard case .literal(let word, let synonyms) = self else { return nil }
        let typed = text.lowercased()
        return typed == word.lowercased() || synonyms.contains(typed) ? word : nil
    }

    /// What the usage line shows.
    var shown: String {
        switch self {
        case .literal(let word, _): word
        case .placeholder(let placeholder): placeholder.name
        }
    }
}
