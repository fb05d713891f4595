import GraphStore

/// `.parameter set|unset|list|clear`: values for `$NAME` in predicates.
enum ParameterCommand {
    static let usage = ".parameter set NAME VALUE | unset NAME | list | clear"

    static let command = ShellCommand(
        ".parameter", aliases: [".param"], usage: usage, summary: "bind values used as $NAME in predicates",
        example: ".parameter set minPrice 12",
        details: """
            VALUE is read as a predicate literal: 12 and 9.5 are numbers, 'Dune' or "Dune" strings, \
            TRUE and FALSE booleans, nil no value, {1, 2} an array, and 2024-05-01 or \
            2024-05-01T10:00:00Z a date (UTC). Any other text is taken as a string. \
            list shows the bindings; unset removes one; clear removes them all.
            """
    ) { shell, words, rest in
        guard let action = words.first?.lowercased() else {
            try list(shell)
            return
        }
        switch action {
        case "set":
            guard words.count >= 3 else { throw ShellError("usage: .parameter set NAME VALUE") }
            try shell.parameters.set(words[1], from: valueText(rest))
        case "unset":
            guard words.count == 2 else { throw ShellError("usage: .parameter unset NAME") }
            guard shell.parameters.unset(words[1]) else { throw ShellError("no parameter named \(words[1])") }
        case "list":
            guard words.count == 1 else { throw ShellError("usage: .parameter list") }
            try list(shell)
        case "clear":
            guard words.count == 1 else { throw ShellError("usage: .parameter clear") }
            shell.parameters.clear()
        default:
            throw ShellError("usage: \(usage)")
        }
    }

    private static func list(_ shell: Shell) throws {
        shell.emit(columns: ["name", "value", "given_as"]) { sink in
            for binding in shell.parameters.all {
                sink.row([.text("$" + binding.name), .text(binding.value.description), .text(binding.text)])
            }
        }
    }

    /// The raw text after `set NAME`, quotes kept, so that `'10'` stays a string.
    static func valueText(_ rest: Substring) -> String {
        var text = rest.drop(while: \.isWhitespace)
        for _ in 0..<2 {
            text = text.drop { !$0.isWhitespace }.drop(while: \.isWhitespace)
        }
        var value = String(text)
        while value.last?.isWhitespace == true { value.removeLast() }
        return value
    }
}
