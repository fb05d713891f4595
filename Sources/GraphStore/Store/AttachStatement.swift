/// An `ATTACH` or `DETACH` given as read-only SQL, read by GraphStore so that it attaches
/// the file itself, read-only (see ``AttachedFiles``): `ATTACH [DATABASE] 'path' AS name`
/// and `DETACH [DATABASE] name`, with spaces, comments and a `;` at the end. The path is a
/// string literal (`''` inside for a quote); the name a word, a quoted name or a string.
///
/// ```swift
/// try AttachStatement.parse("ATTACH 'seed.sqlite' AS seed;")   // .attach(path: "seed.sqlite", name: "seed")
/// try AttachStatement.parse("SELECT 1")                        // nil
/// ```
enum AttachStatement: Equatable {
    case attach(path: String, name: String)
    case detach(name: String)

    /// The statement `sql` holds when it starts with `ATTACH` or `DETACH`; nil when it
    /// starts with anything else.
    ///
    /// - Throws: ``ReadOnlySQLError/attachForm`` when it starts so but is not of that form
    ///   (a path that is not a string literal, a `KEY`, a second statement).
    static func parse(_ sql: String) throws(ReadOnlySQLError) -> AttachStatement? {
        var tokens = SQLTokens(sql)
        guard case .word(let verb)? = tokens.next() else { return nil }
        let isAttach = verb.uppercased() == "ATTACH"
        guard isAttach || verb.uppercased() == "DETACH" else { return nil }
        var token = tokens.next()
        if case .word(let word)? = token, word.uppercased() == "DATABASE" { token = tokens.next() }
        let statement: AttachStatement
        if isAttach {
            guard case .string(let path)? = token, case .word(let keyword)? = tokens.next(), keyword.uppercased() == "AS",
                let name = tokens.next()?.name
            else { throw .attachForm }
            statement = .attach(path: path, name: name)
        } else {
            guard let name = token?.name else { throw .attachForm }
            statement = .detach(name: name)
        }
        while let rest = tokens.next() {
            guard rest == .semicolon else { throw .attachForm }
        }
        return statement
    }
}

/// The tokens of a short SQL statement, as far as ``AttachStatement`` needs them: words,
/// string literals, quoted names and `;`, with spaces and comments skipped; anything else
/// is `.other`.
private struct SQLTokens {
    enum Token: Equatable {
        case word(String)
        case string(String)
        case quotedName(String)
        case semicolon
        case other

        /// The schema name it gives: a word, a quoted name, or a string (as SQLite takes it).
        var name: String? {
            switch self {
            case .word(let text), .quotedName(let text), .string(let text): text
            default: nil
            }
        }
    }

    private let scalars: [Unicode.Scalar]
    private var index = 0

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    mutating func next() -> Token? {
        skipSpacesAndComments()
        guard index < scalars.count else { return nil }
        let c = scalars[index]
        switch c {
        case ";":
            index += 1
            return .semicolon
        case "'":
            return quoted(closing: "'").map(Token.string) ?? .other
        case "\"", "`":
            return quoted(closing: c).map(Token.quotedName) ?? .other
        case "[":
            return quoted(closing: "]").map(Token.quotedName) ?? .other
        default:
            guard Self.isWordScalar(c) else {
                index += 1
                return .other
            }
            var word = String.UnicodeScalarView()
            while index < scalars.count, Self.isWordScalar(scalars[index]) {
                word.append(scalars[index])
                index += 1
            }
            return .word(String(word))
        }
    }

    /// The text of a quoted token, the closing mark doubled inside it standing for itself
    /// (`[…]` has no doubling); nil when it is not closed.
    private mutating func quoted(closing: Unicode.Scalar) -> String? {
        var text = String.UnicodeScalarView()
        index += 1
        while index < scalars.count {
            let c = scalars[index]
            index += 1
            if c == closing {
                guard closing != "]", index < scalars.count, scalars[index] == closing else { return String(text) }
                index += 1
            }
            text.append(c)
        }
        return nil
    }

    private mutating func skipSpacesAndComments() {
        while index < scalars.count {
            let c = scalars[index]
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            if c.properties.isWhitespace {
                index += 1
            } else if c == "-", next == "-" {
                while index < scalars.count, scalars[index] != "\n" { index += 1 }
            } else if c == "/", next == "*" {
                index += 2
                while index < scalars.count, !(scalars[index] == "*" && index + 1 < scalars.count && scalars[index + 1] == "/") { index += 1 }
                index = min(scalars.count, index + 2)
            } else {
                return
            }
        }
    }

    private static func isWordScalar(_ c: Unicode.Scalar) -> Bool {
        c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "_" || c == "$"
    }
}
