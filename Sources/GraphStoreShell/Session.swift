import Foundation

/// Runs lines from a source through a shell: prompts at a terminal, `FILE:LINE: message`
/// diagnostics in scripts, stopping at the first error when `bail` is on.
public struct Session {
    /// The shell that runs the commands.
    public let shell: Shell
    /// Whether to stop at the first failing command.
    public var bail: Bool

    /// Creates a session.
    public init(shell: Shell, bail: Bool) {
        self.shell = shell
        self.bail = bail
    }

    /// Runs every line; returns the exit status (0, or the code of the last failure).
    public func run(_ source: LineSource) -> Int32 {
        var status = ExitStatus.success
        var lineNumber = 0
        while !shell.shouldQuit, let line = source.nextLine(prompt: prompt()) {
            lineNumber += 1
            do {
                try shell.execute(line)
            } catch {
                let code = (error as? ShellError)?.exitCode ?? ExitStatus.commandFailed
                let message = "\(error)"
                if source.isInteractive {
                    shell.diagnostics("error: \(message)\n")
                } else {
                    shell.diagnostics("\(source.name):\(lineNumber): \(message)\n")
                    status = code
                    if bail { return status }
                }
            }
        }
        return status
    }

    private func prompt() -> String {
        let name = shell.store.map { ($0.path as NSString).lastPathComponent } ?? "graphstore"
        let dirty = shell.context?.hasChanges == true ? "*" : ""
        return "\(name)\(dirty)> "
    }
}
