/// `.print [TEXT …]`: a line of text in the output (for scripts).
enum PrintCommand {
    static let text = Placeholder("TEXT")

    static let command = ShellCommand(
        ".print", arguments: [.optional([.repeated([.value(text)])])], summary: "print TEXT (words joined by spaces)",
        example: ".print Books over 10:"
    ) { shell, arguments in
        shell.output(arguments.words(text).joined(separator: " ") + "\n")
    }
}
