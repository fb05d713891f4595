/// `.expanded [on|off|auto]` and psql's `\x`: one field per line.
enum ExpandedCommand {
    static let command = ShellCommand(
        ".expanded", aliases: ["\\x"], arguments: [.optional([.literal("on", "off", "auto")])],
        summary: "show table and box results one field per line, a header per record (psql's expanded display); auto: when a row is wider than the terminal",
        example: "\\x on",
        details: """
            With no argument, expanded display is switched on or off and the new state is printed, \
            as psql's \\x does. auto applies at a terminal only: a result whose rows do not fit \
            its width is shown expanded, others as a table. Other modes are left as they are \
            (line mode is always one value per line).
            """
    ) { shell, arguments in
        if arguments.has("on") {
            shell.settings.expanded = .on
        } else if arguments.has("off") {
            shell.settings.expanded = .off
        } else if arguments.has("auto") {
            shell.settings.expanded = .auto
        } else {
            shell.settings.expanded = shell.settings.expanded == .off ? .on : .off
            shell.output("expanded display is \(shell.settings.expanded.rawValue)\n")
        }
    }
}
