/// `.bail on|off`: stop scripts at the first error.
enum BailCommand {
    static let command = ShellCommand(
        ".bail", usage: ".bail on|off", summary: "stop a script at its first error (on by default when not interactive)",
        example: ".bail off",
        details: "At the prompt an error never ends the session; bail applies to scripts (-f, .read, piped input)."
    ) { shell, words, _ in
        shell.options.bail = try OnOffArgument.value(words, current: shell.options.bail, usage: ".bail on|off")
    }
}
