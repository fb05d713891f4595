/// `.read FILE`: runs a script.
enum ReadCommand {
    static let file = Placeholder("FILE", .file)

    static let command = ShellCommand(
        ".read", aliases: ["\\i"], arguments: [.value(file)], summary: "run the commands in FILE",
        example: ".read examples/BookStore/inspect.graphstore",
        details: """
            Errors in the script are reported as FILE:LINE: message. With bail on (the default \
            in scripts), the script stops at its first error and .read fails; at the prompt the \
            rest of the script still runs unless .bail on is set. Scripts may read other scripts, \
            up to 16 deep. FILE may be a FIFO (-f <(...)) or /dev/stdin; a directory is refused. A line, \
            and a statement continued over several lines, may hold up to \(InputLimits.described): past that, reading \
            stops with an error. At the prompt, Ctrl-C stops a script that waits for input.
            """
    ) { shell, arguments in
        try run(shell, path: try arguments.word(file))
    }

    /// Runs a script file in `shell`; throws `ScriptFailure` (already reported) when a
    /// command in it failed.
    static func run(_ shell: Shell, path: String) throws {
        guard shell.state.scriptDepth < SessionState.maximumScriptDepth else {
            throw ShellError("scripts nested more than \(SessionState.maximumScriptDepth) deep (does \(path) read itself?)")
        }
        let source = try TextLineSource(path: shell.resolve(path: path), name: path)
        shell.state.scriptDepth += 1
        defer { shell.state.scriptDepth -= 1 }
        let status = Session(shell: shell).run(source)
        if status != ExitStatus.success { throw ScriptFailure(status: status) }
    }
}
