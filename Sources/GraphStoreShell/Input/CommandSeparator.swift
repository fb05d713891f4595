/// Splits a statement into the commands it holds: `;` ends a command, as in sqlite3 and
/// psql, so `.mode csv; .rows Book` is two commands and `count Book;` one. A `;` inside
/// quotes or brackets is text (`.print 'a; b'`, `title == "x;y"`); a comment (`--`, `#`)
/// runs to the end of the statement, `;` and all.
///
/// The commands are slices of the statement, so that a message can point at a column of
/// the line as it was typed.
///
/// ```swift
/// CommandSeparator.commands(in: ".mode csv; count Book where title == 'a;b';")
/// // [".mode csv", " count Book where title == 'a;b'"]
/// ```
enum CommandSeparator {
    static func commands(in statement: String) -> [Substring] {
        var commands: [Substring] = []
        var start = statement.startIndex
        var quotes = QuoteState()
        var depth = 0
        let scalars = statement.unicodeScalars
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let c = scalars[index]
            let next = scalars.index(after: index)
            if quotes.advance(c) {
                switch c {
                case "(", "{", "[": depth += 1
                case ")", "}", "]": depth = max(0, depth - 1)
                case ";" where depth == 0:
                    commands.append(statement[start..<index])
                    start = next
                case "-" where next < scalars.endIndex && scalars[next] == "-" && isAtCommandStart(statement[start..<index]),
                    "#" where isAtCommandStart(statement[start..<index]):
                    // A comment takes the rest of the statement.
                    commands.append(statement[start...])
                    return commands.filter(hasText)
                default: break
                }
            }
            index = next
        }
        commands.append(statement[start...])
        return commands.filter(hasText)
    }

    /// Whether only whitespace comes before, since the command started.
    private static func isAtCommandStart(_ before: Substring) -> Bool { before.allSatisfy(\.isWhitespace) }

    private static func hasText(_ command: Substring) -> Bool { !command.allSatisfy(\.isWhitespace) }
}
