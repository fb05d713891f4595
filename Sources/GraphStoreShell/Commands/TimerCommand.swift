/// `.timer on|off`: time each command.
enum TimerCommand {
    static let command = ShellCommand(
        ".timer", aliases: ["\\timing"], usage: ".timer on|off", summary: "print the time each command takes, on standard error",
        example: ".timer on",
        details: "The line reads: time: real 0.004s user 0.003s sys 0.001s. With no argument the timer is toggled."
    ) { shell, words, _ in
        shell.options.timer = try OnOffArgument.value(words, current: shell.options.timer, usage: ".timer on|off")
    }
}
