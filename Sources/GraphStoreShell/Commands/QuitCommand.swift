/// `.quit` / `.exit`: leaves the shell.
enum QuitCommand {
    static let command = ShellCommand(
        ".quit", aliases: [".exit", "\\q"], usage: ".quit", summary: "leave graphstore", example: ".quit"
    ) { shell, _, _ in
        shell.quit()
    }
}
