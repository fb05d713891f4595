/// What the statement reader knows of the commands, to tell where a statement ends (see
/// ``StatementReader``): the commands that take a predicate (`fetch`, `count`, `explain`,
/// `validate`) and `sql` go on over lines as a psql user writes them.
///
/// - A line that ends with a word after which more must come (`where`, `group by`, `AND`,
///   `==`, a `,`) continues on the next line, at a terminal too.
/// - In a script, a line that starts with one of the command's clause words (`where`,
///   `group`, `having`, `sort`, `limit`, `offset`, or `AND`/`OR` in a predicate; for `sql`
///   `FROM`, `WHERE`, `ORDER`, `JOIN` …) continues the command before it.
///
/// The words come from each command's declaration (``ArgumentSyntax``), so a clause added
/// to `fetch` continues as the others do. No clause word is a command's name, so no line
/// that ran as a command before is read as a continuation now; `select` is left out, as a
/// line starting with `SELECT` is SQL (``BareSQL``).
///
/// ```swift
/// let grammar = StatementGrammar(commands: shell.commands)
/// grammar.continuation(of: "fetch")?.nextLineWords.contains("group")   // true
/// grammar.continuation(of: ".print")                                   // nil
/// ```
struct StatementGrammar: Sendable {
    /// How one command goes on over lines (words in lower case).
    struct Continuation: Sendable, Equatable {
        /// Words that, starting the next line of a script, continue the command.
        var nextLineWords: Set<String>
        /// Words after which a line asks for more. A line ending in `,`, `=`, `<` or `>`
        /// asks for more too.
        var trailingWords: Set<String>
    }

    private var byName: [String: Continuation] = [:]

    /// No command continues but by quotes, brackets and a backslash.
    static let none = StatementGrammar()

    private init() {}

    /// The grammar of these commands.
    init(commands: [ShellCommand]) {
        let commandNames = Set(commands.flatMap { [$0.name] + $0.aliases }.map { $0.lowercased() })
        let startsCommand = commandNames.union(BareSQL.verbs).union([BareSQL.explain])
        for command in commands {
            let names = [command.name] + command.aliases
            let continuation: Continuation
            if CommandTextScanner.sqlCommandNames.contains(command.name.lowercased()) {
                continuation = Self.sql
            } else if Self.takesPredicate(command.arguments.elements) {
                var words = ClauseWords()
                words.walk(command.arguments.elements, topLevel: true)
                continuation = Continuation(
                    nextLineWords: words.heads.union(Self.predicateJoiners).subtracting(startsCommand),
                    trailingWords: words.needingMore.union(Self.predicateOperators))
            } else {
                continue
            }
            for name in names { byName[name.lowercased()] = continuation }
        }
    }

    /// How the command named `name` (in any case) continues; nil when it does not.
    func continuation(of name: String) -> Continuation? {
        byName[name.lowercased()]
    }

    /// Whether a line whose last word (outside quotes) is `word` asks for more of a command
    /// that continues as `continuation` does.
    static func asksForMore(_ word: Substring, _ continuation: Continuation) -> Bool {
        guard let last = word.last else { return false }
        if ",=<>".contains(last) { return true }
        if word.contains(where: { $0 == "'" || $0 == "\"" }) { return false }
        // An operator's options: BEGINSWITH[cd].
        var bare = word
        if last == "]", let open = word.firstIndex(of: "[") { bare = word[..<open] }
        return continuation.trailingWords.contains(bare.lowercased())
    }

    /// The first word of a line, for ``Continuation/nextLineWords``: letters, or `&&`, `||`.
    static func firstWord(of line: String) -> String {
        let text = line.drop(while: \.isWhitespace)
        if text.hasPrefix("&&") || text.hasPrefix("||") { return String(text.prefix(2)) }
        return String(text.prefix(while: \.isLetter)).lowercased()
    }

    /// The predicate's joiners, which continue a predicate on the next line.
    static let predicateJoiners: Set<String> = ["and", "or", "&&", "||"]
    /// The predicate's words after which an operand must follow.
    static let predicateOperators: Set<String> = [
        "and", "or", "not", "&&", "||", "!", "beginswith", "endswith", "contains", "like", "matches", "in", "between",
        "any", "all", "none", "some",
    ]

    /// How `sql STATEMENT` goes on: SQL's clause words.
    static let sql = Continuation(
        nextLineWords: [
            "from", "where", "group", "order", "having", "limit", "offset", "join", "inner", "left", "right", "full",
            "cross", "natural", "on", "using", "union", "intersect", "except", "and", "or", "window",
        ],
        trailingWords: [
            "select", "distinct", "from", "where", "group", "order", "by", "having", "limit", "offset", "join", "on",
            "using", "union", "intersect", "except", "and", "or", "not", "in", "like", "glob", "between", "is", "as",
        ])

    /// Whether any of the elements is a predicate.
    private static func takesPredicate(_ elements: [ArgumentElement]) -> Bool {
        elements.contains { element in
            switch element {
            case .word(let choices):
                choices.contains { if case .placeholder(let p) = $0 { p.kind == .predicate } else { false } }
            case .optional(let inner), .repeated(let inner, _), .clauses(_, let inner): takesPredicate(inner)
            case .oneOf(let alternatives): alternatives.contains(where: takesPredicate)
            case .flag, .option, .requiredFlag, .requiredOption, .repeatableOption: false
            }
        }
    }
}

/// The literal words of a declaration: those that head an optional clause (`[where
/// PREDICATE]`), and those after which something must follow (`where`, `group`, `by`).
private struct ClauseWords {
    var heads: Set<String> = []
    var needingMore: Set<String> = []

    /// Walks a sequence of elements. `topLevel`: the command's own, or a `.clauses`
    /// grammar, whose optional groups are clauses; `headsClause`: the sequence is such a
    /// clause; `requiredAfter`: something must be typed after the whole sequence.
    mutating func walk(_ sequence: [ArgumentElement], topLevel: Bool, headsClause: Bool = false, requiredAfter: Bool = false) {
        for (index, element) in sequence.enumerated() {
            let after = requiredAfter || sequence[(index + 1)...].contains(where: Self.isRequired)
            switch element {
            case .word(let choices):
                let literals = choices.compactMap { if case .literal(let word, _) = $0 { word.lowercased() } else { nil } }
                if headsClause, index == 0 { heads.formUnion(literals) }
                if after { needingMore.formUnion(literals) }
            case .optional(let inner):
                walk(inner, topLevel: false, headsClause: topLevel, requiredAfter: after)
            case .clauses(_, let inner):
                walk(inner, topLevel: true, requiredAfter: after)
            case .repeated(let inner, _):
                walk(inner, topLevel: false, requiredAfter: after)
            case .oneOf(let alternatives):
                for alternative in alternatives { walk(alternative, topLevel: false, requiredAfter: after) }
            case .flag, .option, .requiredFlag, .requiredOption, .repeatableOption:
                break
            }
        }
    }

    /// Whether the element must be typed: a word, one of several sequences, a repetition.
    private static func isRequired(_ element: ArgumentElement) -> Bool {
        switch element {
        case .word, .oneOf, .repeated, .requiredFlag, .requiredOption: true
        case .optional, .flag, .option, .repeatableOption, .clauses: false
        }
    }
}
