/// Whether typed text is a whole statement yet.
enum InputCompleteness: Equatable {
    case complete
    /// A quote, `(`, `{` or `[` is still open.
    case open
    /// The text ends with a backslash that asks for another line.
    case continuedByBackslash

    /// Looks at quotes (`'…'`, `"…"`, with backslash escapes inside them) and brackets
    /// outside quotes. Comments (`--`, `#`) are always complete, whatever they contain.
    static func check(_ text: String) -> InputCompleteness {
        var scanner = StatementScanner()
        return scanner.add(text)
    }
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
    private var quotes = QuoteState()
    private var depth = 0
    private var isComment = false
    private var hasStarted = false
    /// How many Unicode scalars have been looked at, over all statements: each one once,
    /// and each line break between a statement's lines. (By scalar, as `QuoteState` reads.)
    private(set) var scannedScalars = 0

    /// Starts the next statement.
    mutating func startStatement() {
        quotes = QuoteState()
        depth = 0
        isComment = false
        hasStarted = false
    }

    /// Adds the statement's next line (the line break before it is implied); says whether
    /// the statement is complete with it.
    mutating func add(_ line: String) -> InputCompleteness {
        if hasStarted {
            scan("\n")
        } else {
            hasStarted = true
            let trimmed = line.drop(while: \.isWhitespace)
            isComment = trimmed.hasPrefix("--") || trimmed.hasPrefix("#")
        }
        if isComment { return .complete }
        for c in line.unicodeScalars { scan(c) }
        if quotes.isInsideQuotes || depth > 0 { return .open }
        if line.last == "\\", !line.hasSuffix("\\\\") { return .continuedByBackslash }
        return .complete
    }

    private mutating func scan(_ c: Unicode.Scalar) {
        scannedScalars += 1
        guard quotes.advance(c) else { return }
        if c == "(" || c == "{" || c == "[" {
            depth += 1
        } else if c == ")" || c == "}" || c == "]" {
            depth -= 1
        }
    }
}
