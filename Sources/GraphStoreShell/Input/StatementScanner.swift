/// Whether typed text is a whole statement yet.
enum InputCompleteness: Equatable {
    case complete
    /// A quote, `(`, `{` or `[` is still open.
    case open
    /// The text ends with a backslash that asks for another line.
    case continuedByBackslash
    /// The line ends with a word after which more must come (`fetch Book where`, `AND`, a
    /// `,`), in a command that goes on over lines (see ``StatementGrammar``).
    case asksForMore
    /// SQL typed bare (``BareSQL``) that no `;` has ended yet: it goes on until one does.
    case awaitsSemicolon

    /// Looks at quotes (`'…'`, `"…"`, with backslash escapes inside them) and brackets
    /// outside quotes, and in the text of `sql` at SQL's quotes and comments (see
    /// ``CommandTextScanner``). Comments (`--`, `#`) are always complete, whatever they
    /// contain. Words that ask for more count with `grammar` (none without it).
    static func check(_ text: String, grammar: StatementGrammar = .none) -> InputCompleteness {
        var scanner = StatementScanner(grammar: grammar)
        return scanner.add(text)
    }

    /// Whether the statement goes on at the next line.
    var continues: Bool { self != .complete }
}

/// Works out `InputCompleteness` line by line: where the quotes and brackets stand is kept
/// between lines, so each line is looked at once however many lines a statement runs to.
/// (Looking at the whole statement again at every line made a long one quadratic: an
/// unterminated quote over 10,000 lines took 52 s.)
///
/// ```swift
/// var scanner = StatementScanner()
/// scanner.add("fetch Book where title == 'Du")   // .open
/// scanner.add("ne'")                              // .complete
/// ```
struct StatementScanner {
    private var scanner = CommandTextScanner()
    private var isComment = false
    private var hasStarted = false
    /// The commands' clause words.
    let grammar: StatementGrammar
    /// How many Unicode scalars have been looked at, over all statements: each one once,
    /// and each line break between a statement's lines. (By scalar, as `QuoteState` reads.)
    private(set) var scannedScalars = 0

    init(grammar: StatementGrammar = .none) {
        self.grammar = grammar
    }

    /// Starts the next statement.
    mutating func startStatement() {
        scanner = CommandTextScanner()
        isComment = false
        hasStarted = false
    }

    /// How the command the statement ends in goes on over lines, if it does (nil too after
    /// a comment, or when a `;` ended the last command).
    var continuation: StatementGrammar.Continuation? {
        guard !isComment, let name = scanner.commandName else { return nil }
        return grammar.continuation(of: name)
    }

    /// Adds the statement's next line (the line break before it is implied); says whether
    /// the statement is complete with it. With `atBoundary` (the last line of a `-c`
    /// command), only a quote, a bracket or a backslash carry it on.
    mutating func add(_ line: String, atBoundary: Bool = false) -> InputCompleteness {
        if hasStarted {
            scan("\n", next: nil)
        } else {
            hasStarted = true
        }
        let scalars = line.unicodeScalars
        var index = scalars.startIndex
        while index < scalars.endIndex, !isComment {
            let next = scalars.index(after: index)
            scan(scalars[index], next: next < scalars.endIndex ? scalars[next] : nil)
            index = next
        }
        if isComment { return .complete }
        if scanner.isOpen { return .open }
        if line.last == "\\", !line.hasSuffix("\\\\") { return .continuedByBackslash }
        if atBoundary { return .complete }
        if scanner.isBareSQL { return .awaitsSemicolon }
        if let continuation, !scanner.isInSQLLineComment, let word = Self.lastWord(of: line),
            StatementGrammar.asksForMore(word, continuation)
        {
            return .asksForMore
        }
        return .complete
    }

    /// The line's last word: what follows its last space, read from its end only.
    private static func lastWord(of line: String) -> Substring? {
        let text = line.trimmedSlice()
        guard !text.isEmpty else { return nil }
        let start = text.lastIndex(where: \.isWhitespace).map(text.index(after:)) ?? text.startIndex
        return text[start...]
    }

    private mutating func scan(_ c: Unicode.Scalar, next: Unicode.Scalar?) {
        scannedScalars += 1
        // A comment runs to the end of the statement: whatever it holds, it is complete.
        if scanner.scan(c, next: next) == .commentToEnd { isComment = true }
    }
}
