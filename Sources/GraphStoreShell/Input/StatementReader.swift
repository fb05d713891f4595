/// Gathers lines into statements, as psql and sqlite3 read SQL: a statement goes on over
/// lines until it is complete.
///
/// - A line that leaves a quote or a bracket open, or ends with a backslash, continues on
///   the next line.
/// - SQL typed bare (``BareSQL``: `SELECT …`, `PRAGMA …`) goes on until its `;`, as in sqlite3.
/// - A command that takes a predicate, and `sql`, go on after a line that ends where more
///   must come (`where`, `AND`, `==`, a `,`), and, in a script, when the next line starts
///   with one of its clause words (`group by`, `sort`, `AND`; see ``StatementGrammar``).
///   A line that ends with `;` is complete: nothing after it continues it.
///
/// At a terminal the continuation prompt shows that the statement goes on; the clause words
/// that start a line count only in scripts, where the next line can be read before the
/// command runs (a script read from a pipe is read one line ahead after such a command, so
/// a program that sends one command and waits for its result ends it with `;`). The last
/// line of one `-c` command ends its statement, unless a quote, a bracket or a backslash
/// carries it on, as before.
///
/// A statement keeps the number of its first line, for `FILE:LINE: message`. Each line is
/// looked at once (`StatementScanner`), and a statement may hold `InputLimits.statementBytes`.
struct StatementReader {
    /// One read: a complete statement, a cancelled one, the end of the input, or why the
    /// input cannot be read on (at `line`).
    enum Input: Equatable {
        case statement(String, line: Int)
        case cancelled
        case end
        case failed(String, line: Int)
    }

    let source: LineSource
    private(set) var lineNumber = 0
    private var scanner: StatementScanner
    /// A line read ahead that turned out to start the next statement, with its number;
    /// or what reading ahead met instead (the end, a failure).
    private var readAhead: (input: LineInput, number: Int)?

    init(source: LineSource, grammar: StatementGrammar = .none) {
        self.source = source
        scanner = StatementScanner(grammar: grammar)
    }

    /// How many characters have been looked at to find where statements end: each once.
    var scannedScalars: Int { scanner.scannedScalars }

    /// Reads the next statement. At the end of the input an unfinished statement is still
    /// returned, so that its error (an unterminated quote) is reported.
    mutating func next(prompt: String, continuation: String) -> Input {
        var text = ""
        var firstLine = 0
        scanner.startStatement()
        while true {
            let (input, number) = read(prompt: firstLine == 0 ? prompt : continuation)
            switch input {
            case .cancelled:
                return .cancelled
            case .failed(let message):
                return .failed(message, line: number)
            case .end:
                return firstLine == 0 ? .end : .statement(text, line: firstLine)
            case .line(let line):
                if firstLine == 0 {
                    // Blank lines between statements do not start one.
                    if line.allSatisfy(\.isWhitespace) { continue }
                    firstLine = number
                } else {
                    text += "\n"
                }
                text += line
                guard text.utf8.count <= InputLimits.statementBytes else {
                    return .failed(InputLimits.statementTooLong, line: firstLine)
                }
                switch scanner.add(line, atBoundary: source.lastLineEndsStatement) {
                case .complete:
                    if continuesOnNextLine() { continue }
                    return .statement(text, line: firstLine)
                case .continuedByBackslash:
                    text.removeLast()
                case .open, .asksForMore, .awaitsSemicolon:
                    break
                }
            }
        }
    }

    /// The next line and its number: the one read ahead, if any, else a new one.
    private mutating func read(prompt: String) -> (input: LineInput, number: Int) {
        if let held = readAhead {
            readAhead = nil
            return held
        }
        let input = source.read(prompt: prompt)
        switch input {
        case .line: lineNumber += 1
        case .failed: return (input, lineNumber + 1)
        case .end, .cancelled: break
        }
        return (input, lineNumber)
    }

    /// After a complete line of a script: whether the next line starts with a clause word
    /// of the command the statement ends in, and so continues it. Either way the line is
    /// read ahead, and the loop (or the next statement) takes it from there.
    private mutating func continuesOnNextLine() -> Bool {
        guard !source.isInteractive, !source.lastLineEndsStatement, let words = scanner.continuation?.nextLineWords else {
            return false
        }
        let next = read(prompt: "")
        readAhead = next
        guard case .line(let line) = next.input else { return false }
        return words.contains(StatementGrammar.firstWord(of: line))
    }
}
