import GraphStore

/// Completion inside a predicate (`fetch Book where …`): key paths where an operand can
/// go, comparison operators after a key path, `AND`/`OR` after a value, `$parameters`.
struct PredicateCompletion {
    let shell: Shell
    /// The entity the predicate is about, when the command named one.
    let entity: EntityMapping?

    static let comparisonWords = ["BEGINSWITH", "CONTAINS", "ENDSWITH", "LIKE", "MATCHES", "IN", "BETWEEN"]
    static let comparisonSymbols = ["==", "!=", "<", "<=", ">", ">="]
    static let operandKeywords = ["NOT", "ANY", "ALL", "NONE", "SUBQUERY", "TRUEPREDICATE", "FALSEPREDICATE"]
    static let valueKeywords = ["nil", "TRUE", "FALSE"]
    static let joiners = ["AND", "OR"]

    /// Completes the last token of `text`, the predicate typed so far.
    func complete(_ text: String) -> Completion {
        if Self.isInsideString(text) { return Completion(word: "", candidates: []) }
        let partialStart = text.lastIndex { !Self.isTokenCharacter($0) }.map(text.index(after:)) ?? text.startIndex
        let partial = String(text[partialStart...])
        if partial.hasPrefix("$") {
            let bare = String(partial.dropFirst())
            let names = shell.parameters.all.map(\.name).filter { Completer.matches($0, bare) }
            return Completion(word: partial, candidates: names.map { CompletionCandidate("$" + $0) })
        }
        var candidates: [CompletionCandidate] = []
        switch Self.previousToken(text[..<partialStart]) {
        case .operandExpected:
            candidates = keyPaths(partial) + Self.keywords(Self.operandKeywords, partial)
        case .valueExpected:
            candidates = keyPaths(partial) + Self.keywords(Self.valueKeywords, partial) + parameterCandidates()
        case .afterKeyPath:
            candidates = Self.keywords(comparisonWords(after: Self.lastToken(text[..<partialStart])), partial)
            if partial.isEmpty { candidates = Self.comparisonSymbols.map { CompletionCandidate($0) } + candidates }
        case .afterValue:
            candidates = Self.keywords(Self.joiners, partial)
        }
        return Completion(word: partial, candidates: candidates)
    }

    /// The comparison words that fit the key path `keyPath`: the string operators only
    /// after a string (`price CONTAINS` compares nothing), `CONTAINS` after a to-many; all
    /// of them when the key path is not the entity's (`SELF`, a variable).
    func comparisonWords(after keyPath: String) -> [String] {
        guard let entity, let kind = KeyPathCompletion(shell: shell, root: entity).kind(of: keyPath) else { return Self.comparisonWords }
        switch kind {
        case .attribute(.string), .attribute(.uri): return Self.comparisonWords
        case .attribute(.boolean), .attribute(.uuid), .attribute(.binaryData), .toOne: return ["IN"]
        case .attribute, .aggregate: return ["IN", "BETWEEN"]
        case .toMany: return ["CONTAINS"]
        }
    }

    /// The token before the end of `text`: the key path a comparison follows.
    static func lastToken(_ text: Substring) -> String {
        let trimmed = text.reversed().drop(while: \.isWhitespace)
        return String(trimmed.prefix(while: isTokenCharacter).reversed())
    }

    private func keyPaths(_ partial: String) -> [CompletionCandidate] {
        guard let entity else { return [] }
        return KeyPathCompletion(shell: shell, root: entity).candidates(for: partial, relationshipsOnly: false)
    }

    private func parameterCandidates() -> [CompletionCandidate] {
        shell.parameters.all.map { CompletionCandidate("$" + $0.name) }
    }

    private static func keywords(_ words: [String], _ partial: String) -> [CompletionCandidate] {
        words.filter { $0.lowercased().hasPrefix(partial.lowercased()) }.map { CompletionCandidate($0) }
    }

    static func isTokenCharacter(_ c: Character) -> Bool {
        c.isLetter || c.isNumber || c == "_" || c == "." || c == "@" || c == "$"
    }

    private static func isInsideString(_ text: String) -> Bool {
        var state = QuoteState()
        for c in text.unicodeScalars { state.advance(c) }
        return state.isInsideQuotes
    }

    enum Context { case operandExpected, valueExpected, afterKeyPath, afterValue }

    /// What the token before the one being typed says should come next.
    static func previousToken(_ text: Substring) -> Context {
        let trimmed = text.reversed().drop(while: \.isWhitespace)
        guard let last = trimmed.first else { return .operandExpected }
        if last == "'" || last == "\"" || last == ")" || last == "}" { return .afterValue }
        if last == "(" || last == "," { return .operandExpected }
        if "=<>!]".contains(last) { return .valueExpected }
        if last == "&" || last == "|" { return .operandExpected }
        let word = String(trimmed.prefix(while: isTokenCharacter).reversed())
        switch word.uppercased() {
        case "AND", "OR", "NOT", "ANY", "ALL", "NONE", "SOME", "WHERE": return .operandExpected
        case "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES", "IN", "BETWEEN": return .valueExpected
        case "NIL", "NULL", "TRUE", "FALSE", "YES", "NO": return .afterValue
        default: break
        }
        if word.hasPrefix("$") { return .afterValue }
        if let first = word.first, first.isNumber || first == "-" { return .afterValue }
        return .afterKeyPath
    }
}
