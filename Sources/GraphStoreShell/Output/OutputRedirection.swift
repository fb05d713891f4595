/// `.output FILE` and `.once FILE`: results go to a file until `.output` (with no file)
/// or, for `.once`, until the next command has run.
///
/// The file is created (or emptied) when the first result is written to it, or when the
/// redirection ends with nothing written — not when `.output` is given. So a `.once` whose
/// command fails leaves the file as it was, and the name is checked again at that moment:
/// whatever the shell opened in between, output never writes over the open store.
final class OutputRedirection {
    /// The file's path, resolved against the shell's directory.
    let path: String
    /// The path as typed, for messages and `.show`.
    let shownAs: String
    /// Where output went before, restored at the end.
    let saved: (String) -> Void
    /// Whether this lasts for one command only.
    let once: Bool
    /// Set once the command a `.once` applies to has started.
    var armed = false
    /// Refuses a path that must not be written (the open store's files).
    private let check: (_ path: String, _ shownAs: String) throws(ShellError) -> Void
    private var file: FileOutput?
    /// Why the file could not be opened; output is then dropped.
    private var openFailure: ShellError?
    private var hasLostText = false

    init(path: String, shownAs: String, once: Bool, saved: @escaping (String) -> Void,
         check: @escaping (_ path: String, _ shownAs: String) throws(ShellError) -> Void) {
        self.path = path
        self.shownAs = shownAs
        self.once = once
        self.saved = saved
        self.check = check
    }

    /// Whether writing to the file has failed: a result being written may as well stop.
    var hasFailed: Bool { openFailure != nil || file?.failure != nil }

    /// Writes text to the file, opening it first if this is the first.
    func write(_ text: String) {
        if let file = file ?? open() {
            file.write(text)
        } else {
            hasLostText = true
        }
    }

    /// Writes out what is buffered; the error of the command that wrote, when text was lost.
    func flushReportingLoss() throws(ShellError) {
        if hasLostText, let openFailure {
            hasLostText = false
            throw openFailure
        }
        if let failure = file?.flushReportingLoss() { throw ShellError("cannot write \(shownAs): \(failure)") }
    }

    /// Ends the redirection: the file is created, empty, if nothing was written to it, unless
    /// `creating` is false (the command a `.once` was for failed).
    func end(creating: Bool) throws(ShellError) {
        if creating, file == nil, openFailure == nil {
            _ = open()
            if let openFailure { throw openFailure }
        }
        try flushReportingLoss()
    }

    /// Opens the file, after checking its name again; nil, and the reason kept, when it cannot be.
    private func open() -> FileOutput? {
        guard openFailure == nil else { return nil }
        do throws(ShellError) {
            try check(path, shownAs)
            file = try FileOutput(creating: path, shownAs: shownAs)
        } catch {
            openFailure = error
        }
        return file
    }
}

extension Shell {
    /// The settings a result is written with: fitted and coloured for the terminal, unless
    /// output is redirected to a file or is not a terminal.
    var effectiveSettings: OutputSettings {
        var settings = self.settings
        if state.redirection == nil, let terminal {
            settings.terminalWidth = terminal.columns
            settings.colour = terminal.colour
        } else {
            settings.terminalWidth = nil
            settings.colour = false
        }
        return settings
    }

    /// Whether writing where output goes now has failed: a result being written stops (the
    /// reader quitting the pager counts).
    var outputHasFailed: Bool {
        if let redirection = state.redirection { return redirection.hasFailed }
        if let pager = state.pager, pager.readerHasQuit { return true }
        return standardOutput?.failure != nil
    }

    /// Sends output to a file (`.output FILE`) or, with `once`, for the next command only.
    /// The file is checked now and created when it is first written to (see `OutputRedirection`).
    func redirectOutput(to path: String, once: Bool) throws(ShellError) {
        let resolved = resolve(path: path)
        try checkNotStoreFile(resolved, shownAs: path)
        try FileOutput.checkCanCreate(resolved, shownAs: path)
        let saved = try endRedirection() ?? output
        let redirection = OutputRedirection(path: resolved, shownAs: path, once: once, saved: saved) { [unowned self] path, name throws(ShellError) in
            try checkNotStoreFile(path, shownAs: name)
        }
        state.redirection = redirection
        output = { redirection.write($0) }
    }

    /// Restores the output a redirection replaced, closing its file (created, empty, if
    /// nothing was written); returns that output. Throws when the file's text was lost.
    @discardableResult
    func endRedirection(creating: Bool = true) throws(ShellError) -> ((String) -> Void)? {
        guard let redirection = state.redirection else { return nil }
        output = redirection.saved
        state.redirection = nil
        try redirection.end(creating: creating)
        return redirection.saved
    }

    /// Called after each command: writes out its output — text it could not write fails it —
    /// and ends a `.once` redirection after the command it was for.
    func finishCommandOutput(commandFailed: Bool) throws {
        // Standard output gone for good ends the session: that comes first.
        let standardOutputLoss = standardOutput?.flushReportingLoss()
        if standardOutput?.isClosedPipe == true { throw StandardOutputClosed() }
        var lost: (any Error)? = standardOutputLoss.map { ShellError("cannot write standard output: \($0)") }
        do {
            try state.redirection?.flushReportingLoss()
        } catch {
            lost = error
        }
        if let current = state.redirection, current.once {
            if current.armed {
                do {
                    try endRedirection(creating: !commandFailed && lost == nil)
                } catch {
                    lost = lost ?? error
                }
            } else {
                current.armed = true
            }
        }
        if let lost { throw lost }
    }

    /// Refuses a file that output or a journal would write over: the open store, its
    /// write-ahead log, shared-memory file or rollback journal.
    func checkNotStoreFile(_ path: String, shownAs name: String) throws(ShellError) {
        if let role = storeFiles?.role(of: path) { throw ShellError("cannot write \(name): it is \(role.name)") }
    }
}

/// Standard output is a pipe nobody reads any more (`graphstore … | head -1`): nothing
/// more can be shown, so the session ends quietly, as `cat` and `sqlite3` do.
struct StandardOutputClosed: Error {}
