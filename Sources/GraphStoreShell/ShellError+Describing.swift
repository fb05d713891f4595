import GraphStore

extension Shell {
    /// The message and exit status for any error a command threw (see
    /// ``ShellError/describing(_:interrupted:)``), with "did you mean" for a key an entity
    /// does not have (`closedate` for `closeDate`).
    func describe(_ error: any Error) -> ShellError {
        var failure = ShellError.describing(error, interrupted: isInterrupted())
        let unknown: (entity: String, key: String)? =
            switch error {
            case FetchError.unknownKeyPath(let entity, _, let key): (entity, key)
            case StoreError.unknownKey(let entity, let key): (entity, key)
            default: nil
            }
        if let unknown, let mapping = try? mapping(unknown.entity) {
            failure.message += Suggestion.didYouMean(unknown.key, among: keyNames(of: mapping))
        }
        return failure
    }
}

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
