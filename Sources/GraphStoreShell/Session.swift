import Foundation
import GraphStore

/// Runs statements from a source through a shell.
///
/// At a terminal: prompts (`BookStore> `, `BookStore*> ` with unsaved changes, a
/// continuation prompt for unfinished input), errors as `error: message`, Ctrl-C drops the
/// line, and leaving (`.quit`, `\q`, Ctrl-D) with unsaved changes asks once whether to save,
/// discard or stay. In scripts: no prompt, errors on standard error as `FILE:LINE: message`,
/// and with `bail` the first error ends the script. A statement may hold several commands
/// separated by `;` (see ``CommandSeparator``).
///
/// ```swift
/// let status = Session(shell: shell, bail: true).run(TextLineSource(lines: [".entities"], name: "-c"))
/// ```
public struct Session {
    /// The shell that runs the commands.
    public let shell: Shell
    /// Whether `error:` labels on a terminal are coloured.
    public var colourDiagnostics = false

    /// Creates a session; `bail` sets the shell's `.bail` option.
    public init(shell: Shell, bail: Bool) {
        self.shell = shell
        shell.options.bail = bail
    }

    /// Creates a session that keeps the shell's `.bail` option as it is (for `.read`).
    init(shell: Shell) {
        self.shell = shell
    }

    /// Runs statements until the source ends or `.quit`. Returns the exit status: 0, or in
    /// a script the status of the last command that failed (`.exit N` sets it outright).
    public func run(_ source: LineSource) -> Int32 {
        var reader = StatementReader(source: source, grammar: shell.statementGrammar)
        var status = ExitStatus.success
        defer { source.finish() }
        while !shell.shouldQuit {
            shell.flushOutput()
            Interrupts.reset()
            // Prompts are made only for a person: scripts do not pay for them.
            let input = source.isInteractive ? reader.next(prompt: prompt(), continuation: continuationPrompt()) : reader.next(prompt: "", continuation: "")
            switch input {
            case .end:
                if source.isInteractive, !mayLeave(source) { continue }
                shell.flushOutput()
                return shell.state.exitStatus ?? status
            case .cancelled:
                continue
            case .failed(let message, let line):
                // Reading cannot go on: a script ends here, a person gets the prompt back.
                report(message, source: source, line: line)
                guard source.isInteractive else {
                    shell.flushOutput()
                    return shell.state.exitStatus ?? ExitStatus.commandFailed
                }
            case .statement(let text, let line):
                if source.isInteractive { source.remember(text) }
                for command in CommandSeparator.commands(in: text) where !shell.shouldQuit {
                    let failure = run(command, source: source, line: line)
                    if let failure, !source.isInteractive { status = failure }
                    // Stop a script at its first failure when bailing (the status stays set).
                    if failure != nil, shell.options.bail, !source.isInteractive { break }
                }
                if shell.shouldQuit, source.isInteractive, !mayLeave(source) { shell.stayAfterQuit() }
            }
            if shell.options.bail, status != ExitStatus.success, !source.isInteractive { break }
        }
        shell.flushOutput()
        return shell.state.exitStatus ?? status
    }

    /// Runs one command; the status it fails with, after reporting why, or nil.
    private func run(_ command: Substring, source: LineSource, line: Int) -> Int32? {
        do {
            try shell.runStatement(command: command, atPrompt: source.isInteractive)
            return nil
        } catch let failure as ScriptFailure {
            // The script's own session already said what failed.
            return failure.status
        } catch is StandardOutputClosed {
            // Nobody reads the results any more: stop every session, quietly.
            shell.quit()
            return ExitStatus.closedPipe
        } catch {
            let failure = shell.describe(error, in: command)
            report(failure.message, source: source, line: line, lineInStatement: failure.lineInStatement ?? 1)
            return failure.exitCode
        }
    }

    /// Before a person leaves with unsaved changes, asks once what to do with them: save
    /// (and leave if that worked), discard (Ctrl-D again discards too), or cancel (Enter,
    /// Ctrl-C, anything else). True to leave.
    private func mayLeave(_ source: LineSource) -> Bool {
        guard let pending = pendingChangesSummary() else { return true }
        let answer = source.ask("\(pending): save, discard, or cancel? [s/d/C] ")
        switch answer?.trimmingWhitespace().lowercased() {
        case nil, "d", "discard":
            return true
        case "s", "save":
            do {
                try shell.runStatement("save")
                return true
            } catch {
                report(ShellError.describing(error, interrupted: shell.isInterrupted()).message, source: source, line: 0)
                return false
            }
        default:
            return false
        }
    }

    /// Reports a failure of the statement that starts at `line`, on its line
    /// `lineInStatement` (from 1): a script names that line of the file; a person sees
    /// `line N:` when it is not the statement's first.
    private func report(_ message: String, source: LineSource, line: Int, lineInStatement: Int = 1) {
        shell.flushOutput()
        if source.isInteractive {
            let place = lineInStatement > 1 ? "line \(lineInStatement): " : ""
            shell.diagnostics(TerminalStyle.red.apply("error:", if: colourDiagnostics) + " \(place)\(message)\n")
        } else {
            shell.diagnostics("\(source.place(ofLine: line + lineInStatement - 1)): \(message)\n")
        }
    }

    /// `BookStore> `, with `*` after the name while there are unsaved changes.
    func prompt() -> String {
        let name = shell.database.map { Self.storeName($0.path) } ?? "graphstore"
        let dirty = shell.context?.hasChanges == true ? "*" : ""
        return "\(name)\(dirty)> "
    }

    /// `   ...> `, as wide as the prompt so that continued text lines up.
    func continuationPrompt() -> String {
        let width = DisplayWidth.of(prompt())
        return String(repeating: " ", count: max(0, width - 5)) + "...> "
    }

    /// The store's file name without its extension.
    static func storeName(_ path: String) -> String {
        let file = (path as NSString).lastPathComponent
        let bare = (file as NSString).deletingPathExtension
        return bare.isEmpty ? file : bare
    }

    /// "2 unsaved changes (1 inserted, 1 updated)", or nil when there are none.
    private func pendingChangesSummary() -> String? {
        guard let context = shell.context, context.hasChanges else { return nil }
        return ChangeSummary(context).sentence
    }
}

/// A failure already reported, with the exit status it gives: a `.read` script that failed
/// (its session has reported the errors), or `diff --exit-code` finding differences.
struct ScriptFailure: Error {
    var status: Int32
}
