/// Gathers lines into statements: a line that leaves a quote or a bracket open, or ends
/// with a backslash, continues on the next line (shown with the continuation prompt).
///
/// A statement keeps the number of its first line, for `FILE:LINE: message`.
struct StatementReader {
    /// One read: a complete statement, a cancelled one, or the end of the input.
    enum Input: Equatable {
        case statement(String, line: Int)
        case cancelled
        case end
    }

    let source: LineSource
    private(set) var lineNumber = 0

    init(source: LineSource) {
        self.source = source
    }

    /// Reads the next statement. At the end of the input an unfinished statement is still
    /// returned, so that its error (an unterminated quote) is reported.
    mutating func next(prompt: String, continuation: String) -> Input {
        var parts: [String] = []
        var firstLine = 0
        while true {
            switch source.read(prompt: parts.isEmpty ? prompt : continuation) {
            case .cancelled:
                return .cancelled
            case .end:
                return parts.isEmpty ? .end : .statement(parts.joined(separator: "\n"), line: firstLine)
            case .line(let line):
                lineNumber += 1
                if parts.isEmpty {
                    // Blank lines between statements do not start one.
                    if line.allSatisfy(\.isWhitespace) { continue }
                    firstLine = lineNumber
                }
                parts.append(line)
                let text = parts.joined(separator: "\n")
                switch InputCompleteness.check(text) {
                case .complete:
                    return .statement(text, line: firstLine)
                case .continuedByBackslash:
                    parts[parts.count - 1].removeLast()
                case .open:
                    break
                }
            }
        }
    }
}

/// Whether typed text is a whole statement yet.
enum InputCompleteness: Equatable {
    case complete
    /// A quote, `(` or `{` is still open.
    case open
    /// The text ends with a backslash that asks for another line.
    case continuedByBackslash

    /// Looks at quotes (`'…'`, `"…"`, with backslash escapes inside them) and brackets
    /// outside quotes. Comments (`--`, `#`) are always complete, whatever they contain.
    static func check(_ text: String) -> InputCompleteness {
        let trimmed = text.drop(while: \.isWhitespace)
        if trimmed.hasPrefix("--") || trimmed.hasPrefix("#") { return .complete }
        var quotes = QuoteState()
        var depth = 0
        for c in text.unicodeScalars where quotes.advance(c) {
            if c == "(" || c == "{" {
                depth += 1
            } else if c == ")" || c == "}" {
                depth -= 1
            }
        }
        if quotes.isInsideQuotes || depth > 0 { return .open }
        if text.last == "\\", !text.hasSuffix("\\\\") { return .continuedByBackslash }
        return .complete
    }
}
