/// `.timer [on|off]`: time each command.
enum TimerCommand {
    static let command = ShellCommand(
        ".timer", aliases: ["\\timing"], arguments: [OnOffArgument.optional], summary: "print the time each command takes, on standard error",
        example: ".timer on",
        details: "The line reads: time: real 0.004s user 0.003s sys 0.001s. With no argument the timer is toggled."
    ) { shell, arguments in
        shell.options.timer = OnOffArgument.value(arguments, current: shell.options.timer)
    }
}
