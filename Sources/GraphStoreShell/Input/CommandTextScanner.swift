/// Reads a statement one Unicode scalar at a time and says where its commands end, for
/// ``CommandSeparator`` (which splits them) and ``StatementScanner`` (which asks whether a
/// quote, bracket or comment is still open at the end of a line).
///
/// A command is read as the predicate language's text (``QuoteState``: `'…'` and `"…"` with
/// backslash escapes, brackets), except one whose first word is `sql` (or `.sql`): its
/// statement is read as SQLite reads SQL (``SQLTextState``: comments, `''`, quoted names),
/// so a `;` inside an SQL comment or string is SQL, not the end of the command. A `--` or
/// `#` at the start of any other command makes a comment that runs to the end of the
/// statement.
struct CommandTextScanner {
    /// What a scalar is to the statement.
    enum Role: Equatable {
        /// Part of the current command.
        case text
        /// A `;` that ends the command.
        case separator
        /// The start of a comment that runs to the end of the statement.
        case commentToEnd
    }

    /// Command names whose argument is SQL text: `sql`, `.sql` and its only prefix `.sq`.
    static let sqlCommandNames: Set<String> = ["sql", ".sql", ".sq"]
    /// Longer first words are no SQL command name, and are not gathered further.
    private static let longestName = 4

    private var quotes = QuoteState()
    private var sql: SQLTextState?
    private var depth = 0
    /// The command's first word while it is being read; nil once it has ended.
    private var firstWord: String? = ""

    /// Whether the text so far leaves a quote, a bracket or an SQL block comment open.
    var isOpen: Bool { quotes.isInsideQuotes || depth > 0 || sql?.isOpen == true }

    /// Reads one scalar; `next` is the one after it, when known (a `--` needs both).
    mutating func scan(_ c: Unicode.Scalar, next: Unicode.Scalar?) -> Role {
        let atStart = firstWord?.isEmpty == true
        readFirstWord(c)
        if var state = sql {
            let isSyntax = state.advance(c)
            sql = state
            return isSyntax ? syntax(c) : .text
        }
        guard quotes.advance(c) else { return .text }
        if atStart, c == "#" || (c == "-" && next == "-") { return .commentToEnd }
        return syntax(c)
    }

    /// Brackets and `;`, outside quotes and comments. (In SQL, `[` quotes a name and never
    /// gets here.)
    private mutating func syntax(_ c: Unicode.Scalar) -> Role {
        switch c {
        case "(", "{", "[": depth += 1
        case ")", "}", "]": depth = max(0, depth - 1)
        case ";" where depth == 0:
            startCommand()
            return .separator
        default: break
        }
        return .text
    }

    /// Gathers the command's first word; at the space after it, an SQL command name turns
    /// the rest of the command into SQL text.
    private mutating func readFirstWord(_ c: Unicode.Scalar) {
        guard let word = firstWord else { return }
        if c.properties.isWhitespace {
            guard !word.isEmpty else { return }
            firstWord = nil
            if CommandTextScanner.sqlCommandNames.contains(word.lowercased()), !quotes.isInsideQuotes { sql = SQLTextState() }
        } else if c == ";" || word.unicodeScalars.count >= CommandTextScanner.longestName {
            firstWord = nil
        } else {
            firstWord = word + String(c)
        }
    }

    /// Starts the next command of the statement: quotes and brackets are closed there.
    private mutating func startCommand() {
        quotes = QuoteState()
        sql = nil
        depth = 0
        firstWord = ""
    }
}
