/// `.expanded [on|off|auto]` and psql's `\x`: one field per line.
enum ExpandedCommand {
    static let command = ShellCommand(
        ".expanded", aliases: ["\\x"], arguments: [OnOffArgument.optionalWithAuto],
        summary: "show table and box results one field per line, a header per record (psql's expanded display); auto: when a row is wider than the terminal",
        example: "\\x on",
        details: """
            With no argument, expanded display is switched on or off and the new state is printed, \
            as psql's \\x does. auto applies at a terminal only: a result whose rows do not fit \
            its width is shown expanded, others as a table. Other modes are left as they are \
            (line mode is always one value per line).
            """
    ) { shell, arguments in
        if let setting: ExpandedDisplay = OnOffArgument.choice(arguments) {
            shell.settings.expanded = setting
        } else {
            shell.settings.expanded = shell.settings.expanded == .off ? .on : .off
            shell.output("expanded display is \(shell.settings.expanded.rawValue)\n")
        }
    }
}
