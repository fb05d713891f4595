/// `.print TEXT…`: a line of text in the output (for scripts).
enum PrintCommand {
    static let command = ShellCommand(
        ".print", usage: ".print [TEXT...]", summary: "print TEXT (words joined by spaces)",
        example: ".print Books over 10:"
    ) { shell, words, _ in
        shell.output(words.joined(separator: " ") + "\n")
    }
}
