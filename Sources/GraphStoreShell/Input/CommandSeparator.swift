/// Splits a statement into the commands it holds: `;` ends a command, as in sqlite3 and
/// psql, so `.mode csv; .rows Book` is two commands and `count Book;` one. A `;` inside
/// quotes or brackets is text (`.print 'a; b'`, `title == "x;y"`); a comment (`--`, `#`)
/// runs to the end of the statement, `;` and all. The text of `sql` is read as SQL, as
/// sqlite3 reads it: a `;` in an SQL comment or string is SQL (see ``CommandTextScanner``).
///
/// The commands are slices of the statement, so that a message can point at a column of
/// the line as it was typed.
///
/// ```swift
/// CommandSeparator.commands(in: ".mode csv; count Book where title == 'a;b';")
/// // [".mode csv", " count Book where title == 'a;b'"]
/// CommandSeparator.commands(in: "sql SELECT 1 -- ; delete Book/p1")
/// // ["sql SELECT 1 -- ; delete Book/p1"]
/// ```
enum CommandSeparator {
    static func commands(in statement: String) -> [Substring] {
        var commands: [Substring] = []
        var start = statement.startIndex
        var scanner = CommandTextScanner()
        let scalars = statement.unicodeScalars
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let next = scalars.index(after: index)
            switch scanner.scan(scalars[index], next: next < scalars.endIndex ? scalars[next] : nil) {
            case .text:
                break
            case .separator:
                commands.append(statement[start..<index])
                start = next
            case .commentToEnd:
                commands.append(statement[start...])
                return commands.filter(hasText)
            }
            index = next
        }
        commands.append(statement[start...])
        return commands.filter(hasText)
    }

    private static func hasText(_ command: Substring) -> Bool { !command.allSatisfy(\.isWhitespace) }
}
