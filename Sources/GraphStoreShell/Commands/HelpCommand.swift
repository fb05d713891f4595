/// `.help [CMD]`: the command list, or one command's usage, details and example.
enum HelpCommand {
    static let commandName = Placeholder("COMMAND", .command)

    static let command = ShellCommand(
        ".help", aliases: ["\\?", "help"], arguments: [.optional([.value(commandName)])], summary: "list commands, or show one command's usage and example",
        example: ".help .rows"
    ) { shell, arguments in
        if let name = arguments[commandName] {
            guard let command = shell.command(named: name) ?? shell.command(named: "." + name) else {
                throw ShellError("no command \(name); .help lists the commands")
            }
            shell.output(text(for: command, width: width(shell)))
            return
        }
        shell.output(listing(shell.commands, width: width(shell)))
    }

    /// The width help is wrapped to: 78 columns, as the manual's, or a narrower terminal's.
    static func width(_ shell: Shell) -> Int {
        max(40, min(78, (shell.effectiveSettings.terminalWidth ?? 80) - 1))
    }

    /// Each command's usage and summary, the summaries lined up after the usual usage width
    /// and wrapped under it (a longer usage pushes the first line along; one of half the
    /// width or more is wrapped on lines of its own, the summary under it); then, after a
    /// blank line, how commands are typed.
    static func listing(_ commands: [ShellCommand], width: Int = 78) -> String {
        let column = 28
        // On a narrow terminal the summary's further lines sit under the usage instead.
        let indent = String(repeating: " ", count: width >= 60 ? column + 2 : 4)
        return commands.map { command in
            let usage = command.usage
            guard usage.count < width / 2 else {
                return TextWrapping.wrap(usage, width: width, indent: "    ", first: "") + TextWrapping.wrap(command.summary, width: width, indent: indent)
            }
            let padding = String(repeating: " ", count: max(0, column - usage.count))
            return TextWrapping.wrap(command.summary, width: width, indent: indent, first: usage + padding + "  ")
        }.joined() + "\n" + TextWrapping.wrap(typing, width: width)
    }

    /// How commands are typed, after the list.
    static let typing =
        "A ; ends a command, as in sqlite3 and psql, dot-commands included: quote text that holds one (.print 'a; b'). "
        + "A line left inside a quote or bracket goes on on the next. A dot-command may be shortened to a prefix only it has "
        + "(.ent). .help COMMAND shows one command, with an example."

    /// Usage, summary, details, aliases and example of one command, wrapped to `width`.
    static func text(for command: ShellCommand, width: Int = 78) -> String {
        var text = "usage: \(command.usage)\n" + TextWrapping.wrap(command.summary, width: width, indent: "  ")
        if !command.details.isEmpty {
            text += TextWrapping.wrap(command.details, width: width, indent: "  ")
        }
        if !command.aliases.isEmpty { text += "also: \(command.aliases.joined(separator: ", "))\n" }
        if command.writes { text += "changes data: needs --write\n" }
        text += "example: \(command.example)\n"
        return text
    }
}
