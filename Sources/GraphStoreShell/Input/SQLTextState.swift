/// Where a scan of SQL text stands, as SQLite reads it: string literals (`'…'`, a doubled
/// `''` inside), quoted names (`"…"`, `` `…` ``, `[…]`), comments (`--` to the end of the
/// line, `/* … */`). There are no backslash escapes in SQL.
///
/// The shell reads the text of `sql` with it, as sqlite3 does, so that a `;` in a comment or
/// a string does not end the command: `sql SELECT 1 -- ; delete Book/p1` is one command.
///
/// ```swift
/// var state = SQLTextState()
/// for c in "SELECT 'a;b' /* ; */".unicodeScalars where state.advance(c) { /* c is SQL syntax */ }
/// state.isOpen   // false
/// ```
struct SQLTextState {
    private enum Place {
        case syntax
        case quoted(closing: Unicode.Scalar)
        case lineComment
        case blockComment
    }

    private var place = Place.syntax
    /// The scalar before, when it could start (`-`, `/`) or end (`*`) a comment with this one.
    private var previous: Unicode.Scalar?

    /// Whether the text so far ends inside a string, a quoted name or a `/* */` comment,
    /// which the next line continues. A `--` comment ends with its line.
    var isOpen: Bool {
        switch place {
        case .syntax, .lineComment: false
        case .quoted, .blockComment: true
        }
    }

    /// Whether the text so far ends inside a `--` comment.
    var isInLineComment: Bool {
        if case .lineComment = place { return true }
        return false
    }

    /// Moves past one scalar. True when it is SQL syntax: outside strings, quoted names and
    /// comments, and not a quote mark.
    @discardableResult
    mutating func advance(_ c: Unicode.Scalar) -> Bool {
        let before = previous
        previous = nil
        switch place {
        case .quoted(let closing):
            if c == closing { place = .syntax }
            return false
        case .lineComment:
            if c == "\n" { place = .syntax }
            return false
        case .blockComment:
            if before == "*", c == "/" { place = .syntax } else if c == "*" { previous = c }
            return false
        case .syntax:
            switch c {
            case "'", "\"", "`": place = .quoted(closing: c)
            case "[": place = .quoted(closing: "]")
            case "-" where before == "-": place = .lineComment
            case "*" where before == "/": place = .blockComment
            case "-", "/":
                previous = c
                return true
            default: return true
            }
            return false
        }
    }
}
