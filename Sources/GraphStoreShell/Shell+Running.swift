import Foundation
import GraphStore

extension Shell {
    /// Runs one command as a session does: echoed with `.echo on`, timed with `.timer on`,
    /// followed by a change summary with `.changes on`; a `.once` redirection ends after it.
    /// Its MATCHES and LIKE share one ``MatchBudget``, however many fetches it runs.
    func runStatement(_ text: String) throws {
        try runStatement(command: text[...])
    }

    /// The same for a command that is a slice of the line it was typed on (see
    /// ``execute(command:)``); one typed at the prompt has its standard output paged (see
    /// ``Pager``). Under `--json-document` the command is an entry of the document.
    func runStatement(command text: Substring, atPrompt: Bool = false) throws {
        let document = state.document
        document?.beginCommand(text.trimmingWhitespace())
        var failure: String?
        defer { document?.endCommand(error: failure) }
        if options.echo { output(text.trimmingWhitespace() + "\n") }
        let before = options.changes ? ChangeSummary(context) : nil
        let clock = options.timer ? CommandClock() : nil
        defer {
            if let clock, options.timer {
                flushOutput()
                diagnostics(clock.report() + "\n")
            }
            if let before, options.changes {
                let after = ChangeSummary(context)
                if after != before {
                    flushOutput()
                    diagnostics("changes: " + (after.total == 0 ? "none unsaved" : after.sentence) + "\n")
                }
            }
        }
        defer { showNotes() }
        defer { warnAboutUnreadableValues() }
        let outerAtPrompt = state.commandIsAtPrompt
        state.commandIsAtPrompt = atPrompt
        defer { state.commandIsAtPrompt = outerAtPrompt }
        if atPrompt { state.pager = makePager() }
        do {
            try MatchBudget(steps: matchBudgetSteps).withBudget { try execute(command: text) }
        } catch {
            let readerQuit = endPager()
            try finishCommandOutput(commandFailed: !readerQuit)
            // The reader quit the pager: the rest was not wanted, and the command stopped.
            if readerQuit, ShellError.describing(error, interrupted: false).message == "interrupted" { return }
            // A script that failed has said why already, each failure in its own entry.
            if !(error is ScriptFailure) { failure = describe(error).message }
            throw error
        }
        endPager()
        try finishCommandOutput(commandFailed: false)
        if isInterrupted() {
            failure = "interrupted"
            throw ShellError("interrupted")
        }
    }

    /// A pager for the next command's standard output, when one applies: `.pager` is not
    /// off, there is a pager command, standard output is a terminal and not redirected, nor
    /// one JSON document (whose entries must stay in order on one stream).
    private func makePager() -> Pager? {
        guard options.pager != .off, let command = pagerCommand, let terminal, state.redirection == nil, state.document == nil, let standardOutput
        else { return nil }
        guard Pager.programExists(command) else {
            if !state.hasToldAboutPager {
                state.hasToldAboutPager = true
                state.notes.append("note: the pager \(command) cannot be found (set PAGER, or .pager off); results are shown without it")
            }
            return nil
        }
        return Pager(command: command, rows: terminal.rows, columns: terminal.columns, always: options.pager == .on) { standardOutput.write($0) }
    }

    /// Whether so many more lines of the running command's result go through its pager.
    func isPaged(lines: Int) -> Bool {
        state.pager?.willPage(lines: lines) ?? false
    }

    /// Ends the running command's pager, if any; whether its reader quit it early.
    @discardableResult
    private func endPager() -> Bool {
        guard let pager = state.pager else { return false }
        state.pager = nil
        flushOutput()
        pager.finish()
        return pager.readerHasQuit
    }
}

extension Shell {
    /// Says what a settings command set (`timing is on`), as psql does: always when the
    /// command toggled the setting (no argument), else only when it was typed at the prompt,
    /// so that a script's standard output stays its data, as sqlite3's does.
    func confirmSetting(_ sentence: String, toggled: Bool) {
        if toggled || state.commandIsAtPrompt { output(sentence + "\n") }
    }

    /// Writes out the notes a command left for after its output.
    func showNotes() {
        guard !state.notes.isEmpty else { return }
        flushOutput()
        for note in state.notes { diagnostics(note + "\n") }
        state.notes = []
    }
}

/// The wall-clock, user and system time a command takes (`.timer on`).
struct CommandClock {
    private let wall: Double
    private let usage: rusage

    init() {
        wall = CommandClock.monotonic()
        usage = CommandClock.resources()
    }

    /// `time: real 0.012s user 0.010s sys 0.001s`.
    func report() -> String {
        let now = CommandClock.resources()
        let real = CommandClock.monotonic() - wall
        let user = CommandClock.seconds(now.ru_utime) - CommandClock.seconds(usage.ru_utime)
        let system = CommandClock.seconds(now.ru_stime) - CommandClock.seconds(usage.ru_stime)
        return String(format: "time: real %.3fs user %.3fs sys %.3fs", real, max(0, user), max(0, system))
    }

    private static func monotonic() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    private static func resources() -> rusage {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage
    }

    private static func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
}
