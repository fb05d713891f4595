/// `.nullvalue TEXT`: what NULL looks like in text output.
enum NullValueCommand {
    static let text = Placeholder("TEXT")

    static let command = ShellCommand(
        ".nullvalue", arguments: [.value(text)], summary: "show NULL as TEXT in text modes (JSON writes null)",
        example: ".nullvalue NULL",
        details: "Quote TEXT to include spaces; .nullvalue '' shows NULL as nothing again (the default)."
    ) { shell, arguments in
        shell.settings.nullText = try arguments.word(text)
    }
}
