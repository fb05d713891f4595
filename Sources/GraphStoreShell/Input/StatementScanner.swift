/// Whether typed text is a whole statement yet.
enum InputCompleteness: Equatable {
    case complete
    /// A quote, `(`, `{` or `[` is still open.
    case open
    /// The text ends with a backslash that asks for another line.
    case continuedByBackslash

    /// Looks at quotes (`'…'`, `"…"`, with backslash escapes inside them) and brackets
    /// outside quotes, and in the text of `sql` at SQL's quotes and comments (see
    /// ``CommandTextScanner``). Comments (`--`, `#`) are always complete, whatever they contain.
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
    private var scanner = CommandTextScanner()
    private var isComment = false
    private var hasStarted = false
    /// How many Unicode scalars have been looked at, over all statements: each one once,
    /// and each line break between a statement's lines. (By scalar, as `QuoteState` reads.)
    private(set) var scannedScalars = 0

    /// Starts the next statement.
    mutating func startStatement() {
        scanner = CommandTextScanner()
        isComment = false
        hasStarted = false
    }

    /// Adds the statement's next line (the line break before it is implied); says whether
    /// the statement is complete with it.
    mutating func add(_ line: String) -> InputCompleteness {
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
        return .complete
    }

    private mutating func scan(_ c: Unicode.Scalar, next: Unicode.Scalar?) {
        scannedScalars += 1
        // A comment runs to the end of the statement: whatever it holds, it is complete.
        if scanner.scan(c, next: next) == .commentToEnd { isComment = true }
    }
}
