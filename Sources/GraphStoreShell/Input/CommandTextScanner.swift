/// Reads a statement one Unicode scalar at a time and says where its commands end, for
/// ``CommandSeparator`` (which splits them) and ``StatementScanner`` (which asks whether a
/// quote, bracket or comment is still open at the end of a line, and what command it is in).
///
/// A command is read as the predicate language's text (``QuoteState``: `'…'` and `"…"` with
/// backslash escapes, brackets), except one whose first word is `sql` (or `.sql`), or that is
/// SQL typed bare (``BareSQL``: `SELECT …`, `EXPLAIN QUERY PLAN …`): its statement is read as
/// SQLite reads SQL (``SQLTextState``: comments, `''`, quoted names), so a `;` inside an SQL
/// comment or string is SQL, not the end of the command. A `--` or `#` at the start of any
/// other command makes a comment that runs to the end of the statement.
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
    /// Longer first words are no command name, and are not gathered further.
    private static let longestName = 16

    /// Which of the command's first words is being read.
    private enum Phase {
        /// Its name.
        case name
        /// The word after `explain`, which says whether it is SQL.
        case second
        /// The rest: its words are not gathered.
        case rest
    }

    private var quotes = QuoteState()
    private var sql: SQLTextState?
    private var depth = 0
    private var phase = Phase.name
    private var name = ""
    private var second = ""
    /// Whether the name ran past `longestName` (it is then no command's).
    private var nameTooLong = false
    /// Whether the command was found to be SQL typed bare, once its first words were read.
    private var bareSQL = false

    /// Whether the text so far leaves a quote, a bracket or an SQL block comment open.
    var isOpen: Bool { quotes.isInsideQuotes || depth > 0 || sql?.isOpen == true }

    /// Whether the text so far ends inside an SQL `--` comment (which ends with its line).
    var isInSQLLineComment: Bool { sql?.isInLineComment == true }

    /// The current command's name in lower case, as far as it has been read; nil before it
    /// starts (after a `;`) or when it is longer than any command's.
    var commandName: String? {
        guard !name.isEmpty, !nameTooLong else { return nil }
        return name.lowercased()
    }

    /// Whether the current command is SQL typed bare, judged on what has been read: at the
    /// end of a line, a name or second word just typed counts as ended.
    var isBareSQL: Bool {
        switch phase {
        case .name: !nameTooLong && BareSQL.verbs.contains(name.lowercased())
        case .second: !second.isEmpty && BareSQL.starts(name, second)
        case .rest: bareSQL
        }
    }

    /// Reads one scalar; `next` is the one after it, when known (a `--` needs both).
    mutating func scan(_ c: Unicode.Scalar, next: Unicode.Scalar?) -> Role {
        let atStart = phase == .name && name.isEmpty
        readFirstWords(c)
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

    /// Gathers the command's name (and after `explain` the next word); at the space after
    /// them, an SQL command name or bare SQL turns the rest of the command into SQL text.
    private mutating func readFirstWords(_ c: Unicode.Scalar) {
        switch phase {
        case .rest:
            return
        case .name:
            if c.properties.isWhitespace {
                guard !name.isEmpty else { return }
                endName()
            } else if c == ";" {
                phase = .rest
            } else if name.unicodeScalars.count >= Self.longestName {
                nameTooLong = true
                phase = .rest
            } else {
                name.unicodeScalars.append(c)
            }
        case .second:
            if c.properties.isWhitespace {
                guard !second.isEmpty else { return }
                phase = .rest
                if BareSQL.starts(name, second), !quotes.isInsideQuotes { startSQL(bare: true) }
            } else if c == ";" || second.unicodeScalars.count >= Self.longestName {
                phase = .rest
            } else {
                second.unicodeScalars.append(c)
            }
        }
    }

    /// The name has been read: it may make the rest SQL, or wait for the second word.
    private mutating func endName() {
        phase = .rest
        guard !quotes.isInsideQuotes else { return }
        let lowered = name.lowercased()
        if Self.sqlCommandNames.contains(lowered) {
            startSQL(bare: false)
        } else if BareSQL.verbs.contains(lowered) {
            startSQL(bare: true)
        } else if lowered == BareSQL.explain {
            phase = .second
        }
    }

    private mutating func startSQL(bare: Bool) {
        sql = SQLTextState()
        bareSQL = bare
    }

    /// Starts the next command of the statement: quotes and brackets are closed there.
    private mutating func startCommand() {
        self = CommandTextScanner()
    }
}
