import GraphStore

/// Splits a command line into words: whitespace separates, single or double quotes group
/// (`.open "My Store.sqlite"`), a backslash inside quotes escapes the next character.
/// Quotes are found by Unicode scalar (see ``QuoteState``).
enum CommandLineSplitter {
    static func words(_ line: Substring) throws(ShellError) -> [String] {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        var inWord = false
        var quote: Unicode.Scalar?
        var opening = 0
        var escaped = false
        for (offset, c) in line.unicodeScalars.enumerated() {
            if escaped {
                current.append(c)
                escaped = false
            } else if let q = quote {
                if c == "\\" { escaped = true } else if c == q { quote = nil } else { current.append(c) }
            } else if c == "\"" || c == "'" {
                quote = c
                opening = offset
                inWord = true
            } else if c.properties.isWhitespace {
                if inWord { words.append(String(current)) }
                current = String.UnicodeScalarView()
                inWord = false
            } else {
                current.append(c)
                inWord = true
            }
        }
        if quote != nil { throw ShellError("unterminated quote in: \(TextExcerpt(String(line), around: opening).text)") }
        if inWord { words.append(String(current)) }
        return words
    }
}
