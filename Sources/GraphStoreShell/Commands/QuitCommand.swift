/// `.quit [CODE]` / `.exit [CODE]`: leaves the shell.
enum QuitCommand {
    static let command = ShellCommand(
        ".quit", aliases: [".exit", "\\q"], usage: ".quit [CODE]", summary: "leave graphstore (with exit status CODE, 0 to 255)",
        example: ".exit 3",
        details: "In a script, .quit ends the whole session, not just the script. Unsaved changes are discarded."
    ) { shell, words, _ in
        guard words.count <= 1 else { throw ShellError("usage: .quit [CODE]") }
        if let text = words.first {
            guard let code = Int32(text), (0...255).contains(code) else { throw ShellError(".quit: CODE must be 0 to 255, not \(text)") }
            shell.state.exitStatus = code
        }
        shell.quit()
    }
}
