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
        default: return ShellError(message(for: error))
        }
    }

    /// A library error as the REPL says it: the library's own words (which speak of stores
    /// and models), followed by the REPL's remedy where it is one of its flags.
    static func message(for error: any Error) -> String {
        switch error {
        case StoreError.readOnly:
            return "\(error); writing needs --write"
        case ModelFileError.legacyFormat(let path, let reason):
            return "\(path): legacy Xcode 3 model (elements archive); open it in Xcode to convert it, or pass the store without --model (\(reason))"
        default:
            return "\(error)"
        }
    }
}
