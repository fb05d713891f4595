/// `.help [CMD]`: the command list, or one command's usage and example.
enum HelpCommand {
    static let command = ShellCommand(
        ".help", aliases: ["\\?", "help"], usage: ".help [COMMAND]", summary: "list commands, or show one command's usage and example",
        example: ".help .rows"
    ) { shell, words, _ in
        if let name = words.first {
            guard let command = shell.command(named: name) ?? shell.command(named: "." + name) else {
                throw ShellError("no command \(name); .help lists the commands")
            }
            var text = "usage: \(command.usage)\n  \(command.summary)\n"
            if !command.aliases.isEmpty { text += "  also: \(command.aliases.joined(separator: ", "))\n" }
            text += "example: \(command.example)\n"
            shell.output(text)
            return
        }
        let width = shell.commands.map(\.usage.count).max() ?? 0
        for command in shell.commands {
            shell.output(command.usage.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + command.summary + "\n")
        }
    }
}
