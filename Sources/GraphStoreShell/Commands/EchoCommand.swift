/// `.echo on|off`: print commands before running them.
enum EchoCommand {
    static let command = ShellCommand(
        ".echo", usage: ".echo on|off", summary: "print each command before its output",
        example: ".echo on"
    ) { shell, words, _ in
        shell.options.echo = try OnOffArgument.value(words, current: shell.options.echo, usage: ".echo on|off")
    }
}
