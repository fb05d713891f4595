/// `key=value` pairs typed after `insert ENTITY` or `set ENTITY/PK`: a value is a bare word
/// (`price=18.5`, `title=Dune`, `published=2020-01-01`) or quoted (`title="Dune Messiah"`,
/// with `\"` for a quote inside). A bare `nil` clears a value; a quoted `"nil"` is text.
struct Assignment: Equatable {
    var key: String
    var text: String
    var quoted: Bool

    /// The pairs of a command's raw text.
    static func parse(_ text: Substring) throws(ShellError) -> [Assignment] {
        var result: [Assignment] = []
        var rest = text.drop(while: \.isWhitespace)
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "="), !rest[..<equals].contains(where: \.isWhitespace) else {
                let word = rest.prefix { !$0.isWhitespace }
                throw ShellError("expected key=value, not \(word)")
            }
            let key = String(rest[..<equals])
            guard !key.isEmpty else { throw ShellError("a value has no key before its = sign") }
            rest = rest[rest.index(after: equals)...]
            // Quotes are found by Unicode scalar (see ``QuoteState``).
            let scalars = rest.unicodeScalars
            if let quote = scalars.first, quote == "\"" || quote == "'" {
                var value = String.UnicodeScalarView()
                var escaped = false
                var end: Substring.Index?
                var i = scalars.index(after: scalars.startIndex)
                while i < scalars.endIndex {
                    let c = scalars[i]
                    if escaped {
                        value.append(c)
                        escaped = false
                    } else if c == "\\" {
                        escaped = true
                    } else if c == quote {
                        end = i
                        break
                    } else {
                        value.append(c)
                    }
                    i = scalars.index(after: i)
                }
                guard let end else { throw ShellError("\(key): unterminated quote") }
                result.append(Assignment(key: key, text: String(value), quoted: true))
                rest = rest[scalars.index(after: end)...]
                if let next = rest.unicodeScalars.first, !next.properties.isWhitespace {
                    throw ShellError("\(key): put a space after the closing quote")
                }
            } else {
                let word = rest.prefix { !$0.isWhitespace }
                guard !word.isEmpty else { throw ShellError("\(key)= has no value (use \(key)=nil to clear it, \(key)=\"\" for empty text)") }
                result.append(Assignment(key: key, text: String(word), quoted: false))
                rest = rest[word.endIndex...]
            }
            rest = rest.drop(while: \.isWhitespace)
        }
        return result
    }
}
