import Foundation

/// The COMMANDS section of `man/graphstore.1`, written from the shell's own command list
/// (usage, summary, details, aliases, example), so that the manual documents every command,
/// including those added later. A test keeps the file's block equal to this text.
public enum ManualPage {
    /// The line before the generated block in the manual.
    public static let beginMarker = #".\" BEGIN GENERATED COMMANDS"#
    /// The line after it.
    public static let endMarker = #".\" END GENERATED COMMANDS"#

    /// roff for every command: a subsection each, titled with its usage.
    public static func commandSection(_ commands: [ShellCommand]) -> String {
        var roff = beginMarker + "\n"
        roff += #".\" Written from the commands' help texts; regenerate with"# + "\n"
        roff += #".\" GRAPHSTORE_RECORD_GOLDEN=1 swift test --filter ManualTests"# + "\n"
        for command in commands {
            roff += ".SS \"\(escape(command.usage, inQuotes: true))\"\n"
            roff += text(sentence(command.summary)) + "\n"
            if !command.details.isEmpty {
                for paragraph in command.details.split(separator: "\n") {
                    roff += ".PP\n" + text(String(paragraph)) + "\n"
                }
            }
            if !command.aliases.isEmpty {
                roff += ".PP\nAlso: " + command.aliases.map { "\\fB\(escape($0))\\fP" }.joined(separator: ", ") + ".\n"
            }
            if command.writes { roff += ".PP\nChanges data: needs \\fB\\-\\-write\\fP.\n" }
            roff += ".PP\nExample:\n.PP\n.RS 4\n.EX\n" + line(command.example) + "\n.EE\n.RE\n"
        }
        return roff + endMarker + "\n"
    }

    /// The summary as a sentence: capital first letter, full stop.
    private static func sentence(_ summary: String) -> String {
        guard let first = summary.first else { return summary }
        var text = first.uppercased() + summary.dropFirst()
        if !text.hasSuffix(".") { text += "." }
        return text
    }

    /// Running text: escaped, wrapped at 78 columns (mandoc's lint wants source lines of at
    /// most 80 bytes), each line protected when it starts with a control character.
    private static func text(_ text: String) -> String {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            let escaped = escape(String(word))
            if !current.isEmpty, current.utf8.count + 1 + escaped.utf8.count > 78 {
                lines.append(current)
                current = ""
            }
            current += (current.isEmpty ? "" : " ") + escaped
        }
        lines.append(current)
        return lines.map { $0.hasPrefix(".") || $0.hasPrefix("'") ? "\\&" + $0 : $0 }.joined(separator: "\n")
    }

    private static func line(_ text: String) -> String {
        let escaped = escape(text, inQuotes: false)
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }

    /// Backslashes and hyphens as roff wants them, `"` doubled inside a quoted argument, and
    /// anything beyond ASCII as a `\[uXXXX]` escape.
    static func escape(_ text: String, inQuotes: Bool = false) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case "\"" where inQuotes: out += "\"\""
            case _ where scalar.value > 0x7e: out += "\\[u" + String(format: "%04X", scalar.value) + "]"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
