import Foundation

/// A journal (or any REPL script) read as what `replay` applies: groups (`begin [NAME]` …
/// `end`, or one mutating command line) and other command lines, with their line numbers.
struct JournalReader {
    enum Item {
        /// Lines applied as one undo group.
        case group(name: String?, lines: [(number: Int, text: String)])
        /// A line run as it is (save, rollback, undo, redo, or a read-only command).
        case command(number: Int, text: String)
    }

    /// Splits the text; `isGroup` says whether a lone command line makes a group (a
    /// mutating command) or runs as it is.
    static func items(_ text: String, path: String, isGroup: (String) -> Bool) throws -> [Item] {
        var items: [Item] = []
        var open: (name: String?, lines: [(number: Int, text: String)], start: Int)?
        // A line may hold several commands separated by `;`, as at the prompt.
        let commands = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().flatMap { index, raw in
            CommandSeparator.commands(in: String(raw)).map { (index + 1, $0.trimmingWhitespace()) }
        }
        for (number, line) in commands {
            if line.isEmpty || line.hasPrefix("--") || line.hasPrefix("#") { continue }
            let name = line.prefix { !$0.isWhitespace }
            let rest = line.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
            switch name {
            case "begin":
                if let open { throw ShellError("\(path):\(number): begin inside the group begun at line \(open.start)") }
                open = (rest.isEmpty ? nil : rest, [], number)
            case "end":
                guard let group = open else { throw ShellError("\(path):\(number): end without begin") }
                guard rest.isEmpty else { throw ShellError("\(path):\(number): end takes no arguments") }
                items.append(.group(name: group.name, lines: group.lines))
                open = nil
            default:
                if open != nil {
                    open?.lines.append((number, line))
                } else if isGroup(String(name)) {
                    items.append(.group(name: nil, lines: [(number, line)]))
                } else {
                    items.append(.command(number: number, text: line))
                }
            }
        }
        if let open { throw ShellError("\(path):\(open.start): begin without end") }
        return items
    }
}
