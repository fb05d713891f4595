/// `.timer [on|off]` and psql's `\timing`: time each command.
enum TimerCommand {
    static let command = ShellCommand(
        ".timer", aliases: ["\\timing"], arguments: [OnOffArgument.optional], summary: "print the time each command takes, on standard error",
        example: ".timer on",
        details: """
            The line reads: time: real 0.004s user 0.003s sys 0.001s. With no argument the timer is toggled. \
            The new state is printed (timing is on), as psql's \\timing does, when the timer is toggled \
            or set at the prompt; a script that sets it prints nothing.
            """
    ) { shell, arguments in
        shell.options.timer = OnOffArgument.value(arguments, current: shell.options.timer)
        shell.confirmSetting("timing is \(shell.options.timer ? "on" : "off")", toggled: !OnOffArgument.given(arguments))
    }
}
