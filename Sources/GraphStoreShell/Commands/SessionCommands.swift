/// The commands about the session rather than the data: output settings, redirection,
/// scripts, parameters. `.help` lists them after the data commands.
enum SessionCommands {
    static let all: [ShellCommand] = [
        ModeCommand.command,
        HeadersCommand.command,
        NullValueCommand.command,
        TimeZoneCommand.command,
        SeparatorCommand.command,
        WidthCommand.command,
        ExpandedCommand.command,
        TransformedCommand.command,
        PagerCommand.command,
        OutputCommand.output,
        OutputCommand.once,
        ReadCommand.command,
        ParameterCommand.command,
        ChangesCommand.command,
        TimerCommand.command,
        EchoCommand.command,
        BailCommand.command,
        PrintCommand.command,
        SettingsCommand.command,
    ]
}
