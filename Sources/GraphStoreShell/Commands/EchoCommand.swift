/// `.echo [on|off]`: print commands before running them.
enum EchoCommand {
    static let command = ShellCommand(
        ".echo", arguments: [OnOffArgument.optional], summary: "print each command before its output",
        example: ".echo on"
    ) { shell, arguments in
        shell.options.echo = OnOffArgument.value(arguments, current: shell.options.echo)
    }
}
