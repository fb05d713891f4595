/// A command's usage line read as a grammar, so that completion follows each command's own
/// `usage` text, including commands added later.
///
/// The notation is the one `.help` shows: `[…]` optional, `(…)` a group, ` | ` between
/// alternatives, `a|b` alternative words, `…`/`...` repetition, UPPERCASE placeholders
/// (`ENTITY`, `FILE`, `PREDICATE`) and literal words (`where`, `--model`, `on|off`).
///
/// ```swift
/// let pattern = UsagePattern(".open [--model PATH] STORE")
/// pattern.expectations(after: ["--model"])     // [PATH]
/// ```
struct UsagePattern {
    /// One word of a usage: a literal to type as is, or a placeholder.
    enum Word: Equatable {
        case literal(String)
        case placeholder(String)

        /// Whether `text` can stand for this word.
        func accepts(_ text: String) -> Bool {
            switch self {
            case .literal(let literal): literal.lowercased() == text.lowercased()
            case .placeholder: true
            }
        }
    }

    indirect enum Element: Equatable {
        /// A word with alternatives (`on|off`).
        case word([Word])
        /// `[…]`: the alternatives, or nothing.
        case optional([[Element]])
        /// `(…)`: one of the alternatives.
        case group([[Element]])
        /// `X…`: one or more.
        case repeated(Element)
    }

    /// The alternatives of the arguments (the command's own name left out).
    let alternatives: [[Element]]

    /// Reads a usage line; its first word (the command's name) is skipped.
    init(_ usage: String) {
        // `ENTITY[.KEYPATH]` is one placeholder: an entity, or a key path from one.
        var tokens = Self.tokens(usage.replacingOccurrences(of: "ENTITY[.KEYPATH]", with: "ENTITY.KEYPATH"))
        let name = tokens.first ?? ""
        if !tokens.isEmpty, !["[", "(", "|"].contains(tokens[0]) { tokens.removeFirst() }
        // `show X | show Y`: each alternative may repeat the command's name.
        tokens = tokens.enumerated().filter { i, token in !(token == name && i > 0 && tokens[i - 1] == "|") }.map(\.element)
        var position = 0
        alternatives = Self.parseAlternatives(tokens, &position)
    }

    // MARK: - Reading the notation

    private static func tokens(_ usage: String) -> [String] {
        var tokens: [String] = []
        for chunk in usage.split(whereSeparator: \.isWhitespace) {
            var word = Substring(chunk)
            // `[desc], …`: the comma only separates repetitions.
            while word.count > 1, word.last == "," { word = word.dropLast() }
            var closing: [String] = []
            while let first = word.first, first == "[" || first == "(" {
                tokens.append(String(first))
                word = word.dropFirst()
            }
            while let last = word.last, last == "]" || last == ")" {
                closing.insert(String(last), at: 0)
                word = word.dropLast()
            }
            if !word.isEmpty { tokens.append(String(word)) }
            tokens += closing
        }
        return tokens
    }

    private static func parseAlternatives(_ tokens: [String], _ position: inout Int) -> [[Element]] {
        var alternatives: [[Element]] = [[]]
        while position < tokens.count {
            let token = tokens[position]
            switch token {
            case "]", ")":
                return alternatives
            case "|":
                position += 1
                alternatives.append([])
            case "[", "(":
                position += 1
                let inner = parseAlternatives(tokens, &position)
                if position < tokens.count { position += 1 }
                alternatives[alternatives.count - 1].append(token == "[" ? .optional(inner) : .group(inner))
            case "...", "…":
                position += 1
                if let last = alternatives[alternatives.count - 1].popLast() {
                    alternatives[alternatives.count - 1].append(.repeated(last))
                }
            default:
                position += 1
                var text = token
                var repeated = false
                for ellipsis in ["...", "…"] where text.hasSuffix(ellipsis) && text.count > ellipsis.count {
                    text.removeLast(ellipsis.count)
                    repeated = true
                }
                let words = text.split(separator: "|").map { part -> Word in
                    isPlaceholder(part) ? .placeholder(String(part)) : .literal(String(part))
                }
                let element = Element.word(words)
                alternatives[alternatives.count - 1].append(repeated ? .repeated(element) : element)
            }
        }
        return alternatives
    }

    /// Placeholders are written in capitals (`ENTITY`, `N`, `ENTITY.KEYPATH`,
    /// `ENTITY/PK[.RELATIONSHIP…]`, `ENTITY/KEY.relationship`) or as `key=value`; literal
    /// words are in lower case (`where`, `on|off`, `--model`).
    private static func isPlaceholder(_ text: Substring) -> Bool {
        if text.contains("=") { return true }
        guard text.contains(where: \.isLetter) else { return false }
        if text.allSatisfy({ !$0.isLetter || $0.isUppercase }) { return true }
        // Two capitals in a row: a placeholder with a lower-case part (`ENTITY/KEY.relationship`).
        return zip(text, text.dropFirst()).contains { $0.isUppercase && $1.isUppercase }
    }

    // MARK: - Matching typed words

    /// Where a match can be: the elements still to come (innermost first), the entity named
    /// so far, and the free-text placeholder (`PREDICATE`) that swallows the rest of the line.
    struct State {
        var stack: [ArraySlice<Element>]
        var entity: String?
        var freeText: (placeholder: String, startWord: Int)?
    }

    /// Placeholders whose text runs to the end of the line.
    static let freeTextPlaceholders: Set<String> = ["PREDICATE", "CONDITION", "WHERE", "FORMAT", "TEXT", "MESSAGE", "EXPRESSION"]
    /// Placeholders that name an entity (bound for later key paths).
    static let entityPlaceholders: Set<String> = ["ENTITY", "ENTITY.KEYPATH"]

    /// What the next word may be after `words` (the words typed after the command name).
    func expectations(after words: [String]) -> [(word: Word, state: State)] {
        var states = alternatives.map { State(stack: [$0[...]], entity: nil, freeText: nil) }
        for (index, typed) in words.enumerated() {
            var next: [State] = []
            for state in states {
                if state.freeText != nil {
                    next.append(state)
                    continue
                }
                for (word, rest) in heads(state) where word.accepts(typed) {
                    var rest = rest
                    if case .placeholder(let name) = word {
                        if Self.entityPlaceholders.contains(name) || name.hasPrefix("ENTITY/") {
                            rest.entity = String(typed.prefix { $0 != "." && $0 != "/" })
                        }
                        if Self.freeTextPlaceholders.contains(name) { rest.freeText = (name, index) }
                    }
                    next.append(rest)
                }
            }
            states = next
            if states.isEmpty { break }
        }
        var result: [(Word, State)] = []
        for state in states {
            if let free = state.freeText {
                result.append((.placeholder(free.placeholder), state))
            } else {
                for (word, rest) in heads(state) {
                    var withWord = rest
                    // Keep where the free text would begin, for the caller.
                    if case .placeholder(let name) = word, Self.freeTextPlaceholders.contains(name) {
                        withWord.freeText = (name, words.count)
                    }
                    withWord.entity = rest.entity ?? state.entity
                    result.append((word, withWord))
                }
            }
        }
        return result
    }

    /// Every word that can come next from `state`, each with the state after it.
    private func heads(_ state: State, depth: Int = 0) -> [(Word, State)] {
        guard depth < 32 else { return [] }
        var state = state
        while let top = state.stack.last, top.isEmpty { state.stack.removeLast() }
        guard var top = state.stack.popLast(), let element = top.first else { return [] }
        top = top.dropFirst()
        var rest = state
        rest.stack.append(top)
        switch element {
        case .word(let words):
            return words.map { ($0, rest) }
        case .optional(let alternatives):
            return heads(rest, depth: depth + 1) + alternatives.flatMap { alternative -> [(Word, State)] in
                var inner = rest
                inner.stack.append(alternative[...])
                return heads(inner, depth: depth + 1)
            }
        case .group(let alternatives):
            return alternatives.flatMap { alternative -> [(Word, State)] in
                var inner = rest
                inner.stack.append(alternative[...])
                return heads(inner, depth: depth + 1)
            }
        case .repeated(let inner):
            var once = rest
            once.stack.append([inner, .optional([[.repeated(inner)]])][...])
            return heads(once, depth: depth + 1)
        }
    }
}
