/// Splits a command line into words: whitespace separates, single or double quotes group
/// (`.open "My Store.sqlite"`), a backslash inside quotes escapes the next character.
enum CommandLineSplitter {
    static func words(_ line: Substring) throws(ShellError) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for c in line {
            if escaped {
                current.append(c)
                escaped = false
            } else if let q = quote {
                if c == "\\" { escaped = true } else if c == q { quote = nil } else { current.append(c) }
            } else if c == "\"" || c == "'" {
                quote = c
                inWord = true
            } else if c.isWhitespace {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(c)
                inWord = true
            }
        }
        if quote != nil { throw ShellError("unterminated quote in: \(line)") }
        if inWord { words.append(current) }
        return words
    }
}
