/// `.bail [on|off]`: stop scripts at the first error.
enum BailCommand {
    static let command = ShellCommand(
        ".bail", arguments: [OnOffArgument.optional], summary: "stop a script at its first error (on by default when not interactive)",
        example: ".bail off",
        details: "At the prompt an error never ends the session; bail applies to scripts (-f, .read, piped input)."
    ) { shell, arguments in
        shell.options.bail = OnOffArgument.value(arguments, current: shell.options.bail)
    }
}
