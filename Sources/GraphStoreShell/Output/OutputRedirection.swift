/// `.output FILE` and `.once FILE`: results go to a file until `.output` (with no file)
/// or, for `.once`, until the next command has run.
struct OutputRedirection {
    /// The file written to.
    let file: FileOutput
    /// Where output went before, restored at the end.
    let saved: (String) -> Void
    /// Whether this lasts for one command only.
    let once: Bool
    /// Set once the command a `.once` applies to has started.
    var armed = false
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

    /// Sends output to a new file (`.output FILE`) or, with `once`, for the next command only.
    func redirectOutput(to path: String, once: Bool) throws(ShellError) {
        let file = try FileOutput(creating: resolve(path: path), shownAs: path)
        let saved = endRedirection() ?? output
        state.redirection = OutputRedirection(file: file, saved: saved, once: once)
        output = { file.write($0) }
    }

    /// Restores the output a redirection replaced, closing its file; returns that output.
    @discardableResult
    func endRedirection() -> ((String) -> Void)? {
        guard let redirection = state.redirection else { return nil }
        redirection.file.flush()
        if let failure = redirection.file.failure, let path = redirection.file.path {
            diagnostics("cannot write \(path): \(failure)\n")
        }
        output = redirection.saved
        state.redirection = nil
        return redirection.saved
    }

    /// Called after each command: a `.once` redirection ends after the command it was for.
    func commandDidRun() {
        guard let current = state.redirection, current.once else { return }
        if current.armed {
            endRedirection()
        } else {
            state.redirection?.armed = true
        }
    }
}
