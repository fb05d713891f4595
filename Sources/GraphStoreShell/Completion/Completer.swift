import Foundation
import GraphStore

/// TAB completion for the shell: command names, then each command's arguments as its
/// declaration (``ArgumentSyntax``) describes them — entity names, key paths along
/// relationships, predicate operators, `$parameters`, output modes, `on|off` and other
/// literal words, and file names.
///
/// ```swift
/// let completer = Completer(shell: shell)
/// completer.complete(".rows Bo").candidates.map(\.text)                     // ["Book", "BookCategory"]
/// completer.complete("fetch Book where category.na").candidates.map(\.text) // ["category.name"]
/// ```
public struct Completer {
    /// The shell whose commands, store and parameters are completed.
    public let shell: Shell

    /// Creates a completer for a shell.
    public init(shell: Shell) {
        self.shell = shell
    }

    /// The completions for `line`, the text before the cursor.
    public func complete(_ line: String) -> Completion {
        let words = LineWords(line)
        guard let command = words.complete.first else {
            return Completion(word: words.partial, candidates: commandCandidates(words.partial))
        }
        // A dot-command shortened to a prefix only it has completes as the command.
        guard let found = shell.command(named: command.text) ?? (try? shell.resolveCommand(command.text)) else {
            return Completion(word: words.partial, candidates: [])
        }
        let typed = Array(words.complete.dropFirst())
        var candidates: [CompletionCandidate] = []
        var word = words.partial
        for expected in ArgumentExpectations(found.arguments, after: typed.map(\.text)).words {
            switch expected.word {
            case .literal(let literal, _):
                if Self.matches(literal, words.partial) { candidates.append(CompletionCandidate(literal)) }
            case .placeholder(let placeholder):
                if let from = expected.restOfLineFrom {
                    // The rest of the line runs from its first word to the cursor; complete its last token.
                    guard placeholder.kind == .predicate else { continue }
                    let start = from < typed.count ? typed[from].start : words.partialStart
                    let predicate = PredicateCompletion(shell: shell, entity: expected.entity.flatMap(mapping))
                    let completion = predicate.complete(String(line[start...]))
                    word = completion.word
                    candidates += completion.candidates
                } else {
                    candidates += argumentCandidates(placeholder.kind, partial: words.partial, entity: expected.entity)
                }
            }
        }
        return Completion(word: word, candidates: Self.unique(candidates))
    }

    // MARK: - Candidates

    private func commandCandidates(_ partial: String) -> [CompletionCandidate] {
        var names = shell.commands.map(\.name)
        // Aliases (`\d`, `.tables`) only when typed towards: they would double the list.
        if !partial.isEmpty { names += shell.commands.flatMap(\.aliases) }
        return names.filter { Self.matches($0, partial) }.map { CompletionCandidate($0) }
    }

    private func argumentCandidates(_ kind: Placeholder.Kind, partial: String, entity: String?) -> [CompletionCandidate] {
        switch kind {
        case .entity:
            return entityCandidates(partial)
        case .table:
            // Tables by name, upper case as SQLite shows them, after the entities.
            let tables = shell.database?.tableNames ?? []
            return tables.filter { Self.matches($0, partial) }.map { CompletionCandidate($0) }
        case .object:
            // `ENTITY/PK…`: the entity name starts the word; the rest is typed by hand.
            return partial.contains("/") ? [] : entityCandidates(partial).map { CompletionCandidate($0.text, terminator: "") }
        case .entityKeyPath:
            guard let dot = partial.firstIndex(of: ".") else {
                return entityCandidates(partial).map { CompletionCandidate($0.text, terminator: "") } + []
            }
            guard let mapping = mapping(String(partial[..<dot])) else { return [] }
            let keyPath = String(partial[partial.index(after: dot)...])
            return KeyPathCompletion(shell: shell, root: mapping).candidates(for: keyPath, relationshipsOnly: false).map {
                CompletionCandidate(String(partial[...dot]) + $0.text, display: $0.display, terminator: $0.terminator)
            }
        case .keyPath:
            guard let mapping = entity.flatMap(mapping) else { return [] }
            return KeyPathCompletion(shell: shell, root: mapping).candidates(for: partial, relationshipsOnly: false)
        case .assignment:
            // `key=value`: the entity's attributes, ready for their value.
            guard !partial.contains("="), let mapping = entity.flatMap(mapping) else { return [] }
            return mapping.attributes.map(\.attribute.name).sorted().filter { Self.matches($0, partial) }
                .map { CompletionCandidate($0 + "=", display: $0, terminator: "") }
        case .file:
            return FileNameCompletion(directory: shell.state.directory).candidates(for: partial)
        case .command:
            return shell.commands.map(\.name).filter { Self.matches($0, partial) || Self.matches(String($0.drop { $0 == "." }), partial) }
                .map { CompletionCandidate($0) }
        case .mode:
            return OutputMode.allCases.map(\.rawValue).filter { Self.matches($0, partial) }.map { CompletionCandidate($0) }
        case .parameter:
            let bare = ShellParameters.bareName(partial)
            return shell.parameters.all.map(\.name).filter { Self.matches($0, bare) }.map { CompletionCandidate($0) }
        case .word, .wholeNumber, .text, .predicate:
            return []
        }
    }

    private func entityCandidates(_ partial: String) -> [CompletionCandidate] {
        guard let store = shell.store else { return [] }
        return store.allMappings.map(\.name).sorted().filter { Self.matches($0, partial) }.map { CompletionCandidate($0) }
    }

    private func mapping(_ name: String) -> EntityMapping? {
        try? shell.mapping(name)
    }

    /// Prefix match; case matters only when the typed text has capitals.
    static func matches(_ candidate: String, _ partial: String) -> Bool {
        if partial.isEmpty { return true }
        if candidate.hasPrefix(partial) { return true }
        return partial == partial.lowercased() && candidate.lowercased().hasPrefix(partial)
    }

    static func unique(_ candidates: [CompletionCandidate]) -> [CompletionCandidate] {
        var seen = Set<String>()
        return candidates.filter { seen.insert($0.text).inserted }
    }
}

/// The words of a line up to the cursor, split as the shell splits them (whitespace, with
/// quotes grouping), and the partial word at the cursor.
struct LineWords {
    struct Word {
        var text: String
        var start: String.Index
    }

    /// Words finished by whitespace.
    var complete: [Word] = []
    /// The word being typed (empty after whitespace).
    var partial = ""
    /// Where the partial word starts.
    var partialStart: String.Index

    init(_ line: String) {
        partialStart = line.endIndex
        // By Unicode scalar, as the shell splits words (see ``QuoteState``).
        let scalars = line.unicodeScalars
        var current = String.UnicodeScalarView()
        var start: String.Index?
        var quote: Unicode.Scalar?
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let c = scalars[index]
            if let q = quote {
                if c == q { quote = nil } else { current.append(c) }
            } else if c == "\"" || c == "'" {
                quote = c
                if start == nil { start = index }
            } else if c.properties.isWhitespace {
                if let s = start { complete.append(Word(text: String(current), start: s)) }
                current = String.UnicodeScalarView()
                start = nil
            } else {
                current.append(c)
                if start == nil { start = index }
            }
            index = scalars.index(after: index)
        }
        if let start {
            partial = String(current)
            partialStart = start
        }
    }
}
