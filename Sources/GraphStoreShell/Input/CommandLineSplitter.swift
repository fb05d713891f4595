import GraphStore

/// A word of a command line, and where it starts in the text typed (for the commands that
/// take the rest of the line as typed).
struct CommandWord: Sendable {
    var text: String
    var start: Substring.Index
}

/// Splits a command line into words: whitespace separates, single or double quotes group
/// (`.open "My Store.sqlite"`), a backslash inside quotes escapes the next character.
/// Quotes are found by Unicode scalar (see ``QuoteState``).
enum CommandLineSplitter {
    static func words(_ line: Substring) throws(ShellError) -> [String] {
        try split(line).map(\.text)
    }

    static func split(_ line: Substring) throws(ShellError) -> [CommandWord] {
        var words: [CommandWord] = []
        var current = String.UnicodeScalarView()
        var start: Substring.Index?
        var quote: Unicode.Scalar?
        var opening = 0
        var escaped = false
        let scalars = line.unicodeScalars
        var index = scalars.startIndex
        var offset = 0
        while index < scalars.endIndex {
            let c = scalars[index]
            if escaped {
                current.append(c)
                escaped = false
            } else if let q = quote {
                if c == "\\" { escaped = true } else if c == q { quote = nil } else { current.append(c) }
            } else if c == "\"" || c == "'" {
                quote = c
                opening = offset
                if start == nil { start = index }
            } else if c.properties.isWhitespace {
                if let start { words.append(CommandWord(text: String(current), start: start)) }
                current = String.UnicodeScalarView()
                start = nil
            } else {
                current.append(c)
                if start == nil { start = index }
            }
            index = scalars.index(after: index)
            offset += 1
        }
        if quote != nil { throw ShellError("unterminated quote in: \(TextExcerpt(String(line), around: opening).text)") }
        if let start { words.append(CommandWord(text: String(current), start: start)) }
        return words
    }
}
