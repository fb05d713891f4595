/// A token of the predicate format language, with the column where it starts.
struct PredicateToken: Sendable {
    var kind: Kind
    /// 1-based column (in Unicode scalars).
    var column: Int
    /// The text as written, for error messages.
    var text: String

    /// The text as an error message quotes it: a long string literal or name is cut to
    /// ``TextExcerpt/quotedWidth`` characters, so that the message stays one line.
    var shownText: String { PredicateToken.shown(text) }

    /// `text` cut as ``shownText`` cuts it.
    static func shown(_ text: String) -> String { TextExcerpt(text, around: 0, width: TextExcerpt.quotedWidth).text }

    enum Kind: Sendable, Equatable {
        /// An identifier; `#word` arrives here with the `#` removed.
        case identifier(String)
        case keyword(PredicateKeyword)
        case string(String)
        case integer(Int64)
        case double(Double)
        /// `$NAME`.
        case variable(String)
        /// `@count` and the other collection operators, with the `@`.
        case collectionOperator(String)
        case format(FormatSpecifier)
        case punctuation(Punctuation)
        case end
    }

    enum Punctuation: String, Sendable {
        case openParen = "(", closeParen = ")", openBrace = "{", closeBrace = "}"
        case openBracket = "[", closeBracket = "]", comma = ",", dot = ".", colon = ":"
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">"
        case greaterOrEqual = ">=", and = "&&", or = "||", not = "!"
        case plus = "+", minus = "-", star = "*", slash = "/", power = "**"
        case ampersand = "&", bar = "|", caret = "^", tilde = "~", shiftLeft = "<<", shiftRight = ">>"
        case assign = ":="
    }
}

/// The conversion a `%` specifier asks for.
enum FormatSpecifier: Sendable, Equatable {
    /// `%@`: any object, as a constant.
    case object
    /// `%K`: a key path, given as a string.
    case keyPath
    /// `%d %i %o %u %x %X %p` with any length modifier: an integer.
    case integer
    /// `%f %e %g %a` (and capitals): a floating-point number.
    case double
    /// `%c %C`: one character.
    case character
    /// `%s %S`: a C string.
    case cString
}

/// Reserved words; keywords are case-insensitive.
enum PredicateKeyword: String, Sendable, CaseIterable {
    case and = "AND", or = "OR", `in` = "IN", not = "NOT", all = "ALL", any = "ANY", some = "SOME"
    case none = "NONE", like = "LIKE", caseInsensitive = "CASEINSENSITIVE", ci = "CI"
    case matches = "MATCHES", contains = "CONTAINS", beginsWith = "BEGINSWITH", endsWith = "ENDSWITH"
    case between = "BETWEEN", null = "NULL", `nil` = "NIL", `self` = "SELF", `true` = "TRUE", yes = "YES"
    case `false` = "FALSE", no = "NO", first = "FIRST", last = "LAST", size = "SIZE", anyKey = "ANYKEY"
    case subquery = "SUBQUERY", fetch = "FETCH", cast = "CAST", truePredicate = "TRUEPREDICATE"
    case falsePredicate = "FALSEPREDICATE", utiConformsTo = "UTI-CONFORMS-TO", utiEquals = "UTI-EQUALS"

    /// Keywords by upper-cased spelling.
    static let byWord: [String: PredicateKeyword] = Dictionary(
        uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })
}
