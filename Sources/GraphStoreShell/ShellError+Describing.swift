import GraphStore

extension ShellError {
    /// The message and exit status for any error a command threw. An interrupted command
    /// (Ctrl-C, or SQLite reporting the interruption) says just that.
    static func describing(_ error: any Error, interrupted: Bool) -> ShellError {
        if interrupted { return ShellError("interrupted") }
        switch error {
        case let error as ShellError: return error
        case let error as StoreError where error.isInterruption: return ShellError("interrupted")
        case let error as SQLiteError where error.isInterruption: return ShellError("interrupted")
        case let error as RegexMatchError where error.isInterruption: return ShellError("interrupted")
        default: return ShellError("\(error)")
        }
    }
}
