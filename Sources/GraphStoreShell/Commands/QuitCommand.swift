/// `.quit [CODE]` / `.exit [CODE]`: leaves the shell.
enum QuitCommand {
    static let exitCode = Placeholder("CODE", .wholeNumber(from: 0, to: 255))

    static let command = ShellCommand(
        ".quit", aliases: [".exit", "\\q"], arguments: [.optional([.value(exitCode)])], summary: "leave graphstore (with exit status CODE, 0 to 255)",
        example: ".exit 3",
        details: "In a script, .quit ends the whole session, not just the script. Unsaved changes are discarded."
    ) { shell, arguments in
        if let code = arguments.number(exitCode) { shell.state.exitStatus = Int32(clamping: code) }
        shell.quit()
    }
}
