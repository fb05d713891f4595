/// Gathers lines into statements: a line that leaves a quote or a bracket open, or ends
/// with a backslash, continues on the next line (shown with the continuation prompt).
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
    private var scanner = StatementScanner()

    init(source: LineSource) {
        self.source = source
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
            switch source.read(prompt: firstLine == 0 ? prompt : continuation) {
            case .cancelled:
                return .cancelled
            case .failed(let message):
                return .failed(message, line: lineNumber + 1)
            case .end:
                return firstLine == 0 ? .end : .statement(text, line: firstLine)
            case .line(let line):
                lineNumber += 1
                if firstLine == 0 {
                    // Blank lines between statements do not start one.
                    if line.allSatisfy(\.isWhitespace) { continue }
                    firstLine = lineNumber
                } else {
                    text += "\n"
                }
                text += line
                guard text.utf8.count <= InputLimits.statementBytes else {
                    return .failed(InputLimits.statementTooLong, line: firstLine)
                }
                switch scanner.add(line) {
                case .complete:
                    return .statement(text, line: firstLine)
                case .continuedByBackslash:
                    text.removeLast()
                case .open:
                    break
                }
            }
        }
    }
}
