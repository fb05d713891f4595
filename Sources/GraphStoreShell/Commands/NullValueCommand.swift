/// `.nullvalue TEXT`: what NULL looks like in text output.
enum NullValueCommand {
    static let command = ShellCommand(
        ".nullvalue", usage: ".nullvalue TEXT", summary: "show NULL as TEXT in text modes (JSON writes null)",
        example: ".nullvalue NULL",
        details: "Quote TEXT to include spaces; .nullvalue '' shows NULL as nothing again (the default)."
    ) { shell, words, _ in
        guard words.count == 1 else { throw ShellError("usage: .nullvalue TEXT") }
        shell.settings.nullText = words[0]
    }
}
