import Foundation
import GraphStore

/// What `graphstore` does from its arguments to its exit status: opens the store, runs the
/// rc file, then the commands, a script on standard input, or the interactive prompt.
public enum Launcher {
    /// Runs graphstore with these arguments (without the program name) and environment
    /// variables; returns the exit status.
    public static func run(arguments: [String], environment: LaunchEnvironment = .current) -> Int32 {
        // Before option parsing: the same command as the plugin's `graphstore-codegen`.
        if arguments.first == "codegen" { return CodegenCommand.run(Array(arguments.dropFirst()), as: "graphstore codegen") }
        let options: LaunchOptions
        do {
            options = try LaunchOptions.parse(arguments)
        } catch {
            writeError("graphstore: \(error.message)\n")
            return error.exitCode
        }
        if options.showsHelp {
            writeOut(HelpText.text)
            return ExitStatus.success
        }
        if options.showsVersion {
            writeOut("graphstore \(GraphStoreVersion.string)\n")
            return ExitStatus.success
        }

        let interactive = options.actions.isEmpty && isatty(STDIN_FILENO) == 1
        // A write to a closed pipe fails with EPIPE instead of killing the process: a
        // `.output` to a FIFO whose reader went away is the failure of that command, and
        // standard output's own closed pipe ends the session in order (`endByClosedPipe`).
        signal(SIGPIPE, SIG_IGN)
        let standardOutput = FileOutput.standardOutput()
        let shell = Shell(
            writeEnabled: options.write,
            output: { standardOutput.write($0) },
            diagnostics: { text in
                standardOutput.flush()
                writeError(text)
            })
        // Standard output goes through the running command's pager, if it has one.
        shell.output = { [unowned shell] text in
            if let pager = shell.state.pager { pager.write(text) } else { standardOutput.write(text) }
        }
        shell.flushOutput = { standardOutput.flush() }
        shell.standardOutput = standardOutput
        shell.terminal = TerminalInfo(fileDescriptor: STDOUT_FILENO, environment: environment)
        if let mode = options.mode { shell.settings.select(mode) }
        // psql users set \x auto in their .psqlrc: at a terminal it is the default.
        if shell.terminal != nil { shell.settings.expanded = .auto }
        if options.jsonDocument { shell.startJSONDocument(lines: options.mode == .jsonl) }
        if let separator = options.separator { shell.settings.columnSeparator = separator }
        if let newline = options.newline { shell.settings.rowSeparator = newline }
        if let headers = options.headers { shell.settings.headers = headers }
        if let nullText = options.nullText { shell.settings.nullText = nullText }
        shell.options.bail = options.bail ?? !interactive
        shell.options.echo = options.echo
        shell.options.strict = options.strict
        let colourDiagnostics = TerminalInfo(fileDescriptor: STDERR_FILENO, environment: environment)?.colour ?? false

        if interactive {
            Interrupts.install()
            shell.pagerCommand = environment.pagerCommand
        }
        if let store = options.store {
            do {
                // At a terminal, a store that does not match --model may be browsed anyway.
                let ask: ((String) -> Bool)? = interactive ? { [unowned shell] mismatch in
                    shell.diagnostics("graphstore: \(mismatch)\nOpen it read-only to browse, with its own model? [y/N] ")
                    return (readLine() ?? "").trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("y")
                } : nil
                if options.create, let model = options.model {
                    try shell.create(path: store, modelPath: model)
                } else {
                    try shell.open(path: store, modelPath: options.model, browsingMismatch: options.browsesMismatch, askToBrowse: ask)
                }
            } catch {
                shell.diagnostics("graphstore: \(ShellError.describing(error, interrupted: shell.isInterrupted()).message)\n")
                return ExitStatus.storeNotOpened
            }
        } else if options.model != nil || options.create {
            shell.diagnostics("graphstore: \(options.create ? "--create" : "--model") needs a STORE\nTry 'graphstore --help' for more information.\n")
            return ExitStatus.usage
        }

        var status = runCommands(shell, options: options, interactive: interactive, environment: environment, colourDiagnostics: colourDiagnostics)
        if status == ExitStatus.success, shell.options.strict, shell.state.hasWarned { status = ExitStatus.warnings }
        shell.closeStore()
        return finish(shell, standardOutput: standardOutput, status: status)
    }

    /// The rc file, then the commands, a script on standard input or the prompt; the status.
    private static func runCommands(
        _ shell: Shell, options: LaunchOptions, interactive: Bool, environment: LaunchEnvironment, colourDiagnostics: Bool
    ) -> Int32 {
        var status = ExitStatus.success
        if let script = rcFile(options, environment: environment) {
            status = runScript(shell, path: script.path, required: script.required)
            if status != ExitStatus.success, shell.options.bail || shell.shouldQuit { return status }
        }
        if !options.initialCommands.isEmpty {
            var session = Session(shell: shell)
            session.colourDiagnostics = colourDiagnostics
            let result = session.run(TextLineSource(lines: options.initialCommands, name: "-cmd"))
            if result != ExitStatus.success {
                status = result
                if shell.options.bail || shell.shouldQuit { return status }
            }
        }
        if !options.actions.isEmpty {
            for group in groups(options.actions) where !shell.shouldQuit {
                let result: Int32
                switch group {
                case .commands(let lines):
                    var session = Session(shell: shell)
                    session.colourDiagnostics = colourDiagnostics
                    result = session.run(TextLineSource(lines: lines, name: "-c"))
                case .arguments(let lines):
                    var session = Session(shell: shell)
                    session.colourDiagnostics = colourDiagnostics
                    result = session.run(TextLineSource(lines: lines, name: "graphstore", numbered: false))
                case .file(let path):
                    result = runScript(shell, path: path, required: true)
                }
                if result != ExitStatus.success {
                    status = result
                    if shell.options.bail { break }
                }
            }
            return scriptStatus(shell, shell.state.exitStatus ?? status, discardsUnsaved: options.discardsUnsaved)
        }

        let source: LineSource
        if interactive, let editor = makeEditor(shell, environment: environment) {
            source = editor
            banner(shell, to: isatty(STDOUT_FILENO) == 1 ? STDOUT_FILENO : STDERR_FILENO)
        } else {
            source = TextLineSource(fileDescriptor: STDIN_FILENO, name: "stdin")
        }
        var session = Session(shell: shell)
        session.colourDiagnostics = colourDiagnostics
        let result = session.run(source)
        let final = result != ExitStatus.success ? result : status
        guard !source.isInteractive else { return final }
        return scriptStatus(shell, final, discardsUnsaved: options.discardsUnsaved)
    }

    /// Ends the session's output: a redirection's file is closed (created if nothing was
    /// written to it), standard output written out. Text that could not be written makes
    /// the status a failure; a closed standard output pipe makes it `ExitStatus.closedPipe`.
    private static func finish(_ shell: Shell, standardOutput: FileOutput, status: Int32) -> Int32 {
        var status = status
        shell.finishJSONDocument()
        do {
            try shell.endRedirection()
        } catch {
            shell.diagnostics("graphstore: \(error.message)\n")
            if status == ExitStatus.success { status = ExitStatus.commandFailed }
        }
        if let failure = standardOutput.flushReportingLoss(), !standardOutput.isClosedPipe {
            writeError("graphstore: cannot write standard output: \(failure)\n")
            if status == ExitStatus.success { status = ExitStatus.commandFailed }
        }
        return standardOutput.isClosedPipe ? ExitStatus.closedPipe : status
    }

    /// Ends the process as a program that writes to a closed pipe is ended by default: by
    /// `SIGPIPE`, silently (a shell reports status 141), as `cat` and `sqlite3` are.
    public static func endByClosedPipe() -> Never {
        // Ending by a signal skips `atexit`, where private copies would be removed.
        PersistentStore.removePrivateCopies()
        signal(SIGPIPE, SIG_DFL)
        raise(SIGPIPE)
        exit(ExitStatus.closedPipe)
    }

    // MARK: - Pieces

    private enum ActionGroup {
        case commands([String])
        case arguments([String])
        case file(String)
    }

    /// Consecutive commands run as one source, so that `-c:N` counts across them (and
    /// commands after the store as another).
    private static func groups(_ actions: [LaunchOptions.Action]) -> [ActionGroup] {
        var groups: [ActionGroup] = []
        for action in actions {
            switch action {
            case .command(let text):
                if case .commands(let lines)? = groups.last {
                    groups[groups.count - 1] = .commands(lines + [text])
                } else {
                    groups.append(.commands([text]))
                }
            case .argument(let text):
                if case .arguments(let lines)? = groups.last {
                    groups[groups.count - 1] = .arguments(lines + [text])
                } else {
                    groups.append(.arguments([text]))
                }
            case .file(let path):
                groups.append(.file(path))
            }
        }
        return groups
    }

    /// `--init FILE` (which must exist), else `~/.graphstorerc` if there is one, unless `--no-rc`.
    private static func rcFile(_ options: LaunchOptions, environment: LaunchEnvironment) -> (path: String, required: Bool)? {
        if let path = options.initFile { return (path, true) }
        guard options.readsRCFile, let home = environment.home, !home.isEmpty else { return nil }
        let path = home.hasSuffix("/") ? home + ".graphstorerc" : home + "/.graphstorerc"
        return access(path, F_OK) == 0 ? (path, false) : nil
    }

    private static func runScript(_ shell: Shell, path: String, required: Bool) -> Int32 {
        do {
            try ReadCommand.run(shell, path: path)
            return ExitStatus.success
        } catch let failure as ScriptFailure {
            return failure.status
        } catch {
            shell.diagnostics("graphstore: \(ShellError.describing(error, interrupted: shell.isInterrupted()).message)\n")
            return ExitStatus.commandFailed
        }
    }

    private static func makeEditor(_ shell: Shell, environment: LaunchEnvironment) -> EditLineSource? {
        // libedit decodes typed UTF-8 only under a UTF-8 character type locale.
        setlocale(LC_CTYPE, "")
        if let codeset = nl_langinfo(nl_item(CODESET)), String(cString: codeset) != "UTF-8" { setlocale(LC_CTYPE, "C.UTF-8") }
        let completer = Completer(shell: shell)
        return EditLineSource(
            program: "graphstore", historyPath: historyPath(environment),
            echoToStandardError: isatty(STDOUT_FILENO) != 1,
            completer: { completer.complete($0) })
    }

    /// `GRAPHSTORE_HISTORY` (empty: no history file), else `~/.graphstore_history`.
    static func historyPath(_ environment: LaunchEnvironment) -> String? {
        if let path = environment.history { return path.isEmpty ? nil : path }
        guard let home = environment.home, !home.isEmpty else { return nil }
        return home.hasSuffix("/") ? home + ".graphstore_history" : home + "/.graphstore_history"
    }

    private static func banner(_ shell: Shell, to descriptor: Int32) {
        var text = "graphstore \(GraphStoreVersion.string)"
        if let store = shell.store {
            let access = store.isReadOnly ? "read-only" : "read-write"
            text += ": \((store.path as NSString).lastPathComponent) (\(access); model: \(store.modelOrigin))\n"
            for anomaly in store.anomalies { text += "warning: \(anomaly)\n" }
        } else if let plain = shell.plainFile {
            text += ": \((plain.path as NSString).lastPathComponent) (plain SQLite file, read-only: sql, .rows, .schema)\n"
        } else {
            text += ": no store open; .open STORE opens one\n"
        }
        text += "Enter .help for commands, Ctrl-D to quit.\n"
        shell.flushOutput()
        write(descriptor, text)
    }

    /// The status of a script (`-c`, `-f`, standard input) that ended with `status`. One
    /// that ends well but leaves changes unsaved has probably forgotten `save` (sqlite3
    /// would have committed them): it says so and fails with `ExitStatus.unsavedChanges`,
    /// unless `--discard-unsaved` said that is meant. One that failed has said so already.
    private static func scriptStatus(_ shell: Shell, _ status: Int32, discardsUnsaved: Bool) -> Int32 {
        let summary = ChangeSummary(shell.context)
        guard status == ExitStatus.success, summary.total > 0 else { return status }
        if discardsUnsaved {
            shell.diagnostics("graphstore: \(summary.sentence) discarded (--discard-unsaved)\n")
            return status
        }
        shell.diagnostics("graphstore: warning: \(summary.sentence) discarded (not saved; save them, or pass --discard-unsaved)\n")
        return ExitStatus.unsavedChanges
    }

    private static func writeOut(_ text: String) { write(STDOUT_FILENO, text) }
    private static func writeError(_ text: String) { write(STDERR_FILENO, text) }

    private static func write(_ descriptor: Int32, _ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if n > 0 {
                bytes = bytes.dropFirst(n)
            } else if n < 0, errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}
