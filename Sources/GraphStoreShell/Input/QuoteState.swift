/// Where a scan of command text stands with respect to the predicate language's quotes:
/// `'…'` and `"…"`, with backslash escapes inside them.
///
/// The scan goes by Unicode scalar, as the predicate lexer does: a combining mark after a
/// closing quote (`"cafe"` + U+0301) is drawn on the quote but does not hide it.
///
/// ```swift
/// var state = QuoteState()
/// for c in #"name == "a(b" AND ("#.unicodeScalars where state.advance(c) { /* c is outside quotes */ }
/// state.isInsideQuotes   // false
/// ```
struct QuoteState {
    private var quote: Unicode.Scalar?
    private var escaped = false

    /// Whether the text so far ends inside a quoted string.
    var isInsideQuotes: Bool { quote != nil }

    /// Moves past one character. True when it is outside quotes and not a quote mark, so
    /// that it can be read as syntax (a bracket, a space between words).
    @discardableResult
    mutating func advance(_ c: Unicode.Scalar) -> Bool {
        if escaped {
            escaped = false
        } else if let q = quote {
            if c == "\\" { escaped = true } else if c == q { quote = nil }
        } else if c == "'" || c == "\"" {
            quote = c
        } else {
            return true
        }
        return false
    }
}
