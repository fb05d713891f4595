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
            shell.output(text(for: command))
            return
        }
        shell.output(listing(shell.commands))
    }

    /// One line per command: its usage and summary, the summaries lined up after the
    /// usual usage width (a longer usage pushes its summary along instead of wrapping);
    /// then, after a blank line, how commands are typed.
    static func listing(_ commands: [ShellCommand]) -> String {
        let column = 28
        return commands.map { command in
            let padding = String(repeating: " ", count: max(0, column - command.usage.count))
            return command.usage + padding + "  " + command.summary + "\n"
        }.joined() + "\n" + typing
    }

    /// How commands are typed, after the list.
    static let typing = TextWrapping.wrap(
        "A ; ends a command, as in sqlite3 and psql, dot-commands included: quote text that holds one (.print 'a; b'). "
            + "A line left inside a quote or bracket goes on on the next. A dot-command may be shortened to a prefix only it has "
            + "(.ent). .help COMMAND shows one command, with an example.")

    /// Usage, summary, details, aliases and example of one command.
    static func text(for command: ShellCommand) -> String {
        var text = "usage: \(command.usage)\n  \(command.summary)\n"
        if !command.details.isEmpty {
            text += TextWrapping.wrap(command.details, indent: "  ")
        }
        if !command.aliases.isEmpty { text += "also: \(command.aliases.joined(separator: ", "))\n" }
        if command.writes { text += "changes data: needs --write\n" }
        text += "example: \(command.example)\n"
        return text
    }
}
