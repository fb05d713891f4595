/// `.quit [CODE]` / `.exit [CODE]`: leaves the shell.
enum QuitCommand {
    static let exitCode = Placeholder("CODE", .wholeNumber(from: 0, to: 255))

    static let command = ShellCommand(
        ".quit", aliases: [".exit", "\\q"], arguments: [.optional([.value(exitCode)])], summary: "leave graphstore (with exit status CODE, 0 to 255)",
        example: ".exit 3",
        details: """
            In a script, .quit ends the whole session, not just the script. With unsaved changes, \
            at the prompt .quit (like Ctrl-D) asks once whether to save them, discard them or \
            stay; a script that ends with unsaved changes discards them and exits with status 5 \
            unless graphstore was started with --discard-unsaved.
            """
    ) { shell, arguments in
        if let code = arguments.number(exitCode) { shell.state.exitStatus = Int32(clamping: code) }
        shell.quit()
    }
}
