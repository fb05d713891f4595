import GraphStore

/// `.parameter [set NAME VALUE | unset NAME | list | clear]`: values for `$NAME` in predicates.
enum ParameterCommand {
    static let parameterName = Placeholder("NAME", .parameter)
    static let valueText = Placeholder("VALUE", .text)

    static let command = ShellCommand(
        ".parameter", aliases: [".param"],
        arguments: [
            .optional([
                .oneOf([[.literal("set"), .value(parameterName), .value(valueText)], [.literal("unset"), .value(parameterName)], [.literal("list")], [.literal("clear")]])
            ])
        ],
        summary: "bind values used as $NAME in predicates",
        example: ".parameter set minPrice 12",
        details: """
            VALUE is read as a predicate literal: 12 and 9.5 are numbers, 'Dune' or "Dune" strings, \
            TRUE and FALSE booleans, nil no value, {1, 2} an array, and 2024-05-01 or \
            2024-05-01T10:00:00Z a date (UTC). Any other text is taken as a string. \
            list shows the bindings; unset removes one; clear removes them all.
            """
    ) { shell, arguments in
        if arguments.has("set") {
            // The value as typed, quotes kept, so that `'10'` stays a string.
            try shell.parameters.set(try arguments.word(parameterName), from: String(arguments.text(from: valueText) ?? ""))
        } else if arguments.has("unset") {
            let name = try arguments.word(parameterName)
            guard shell.parameters.unset(name) else { throw ShellError("no parameter named \(name)") }
        } else if arguments.has("clear") {
            shell.parameters.clear()
        } else {
            try list(shell)
        }
    }

    private static func list(_ shell: Shell) throws {
        shell.emit(columns: ["name", "value", "given_as"]) { sink in
            for binding in shell.parameters.all {
                sink.row([.text("$" + binding.name), .text(binding.value.description), .text(binding.text)])
            }
        }
    }
}
