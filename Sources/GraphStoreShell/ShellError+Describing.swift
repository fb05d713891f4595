import Foundation
import GraphStore

extension Shell {
    /// The message and exit status for any error a command threw (see
    /// ``ShellError/describing(_:interrupted:)``), with "did you mean" for a key an entity
    /// does not have (`closedate` for `closeDate`).
    ///
    /// When the fault is a word typed in `command` (a key, an entity, a clause word, the
    /// pattern that spent the command's ``MatchBudget``), the error names the line of the
    /// statement it is on; in a statement of several lines (and for a pattern) the message
    /// then shows that line with a caret under the word.
    func describe(_ error: any Error, in command: Substring? = nil) -> ShellError {
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
        if failure.token == nil { failure.token = Self.token(of: error) }
        guard failure.lineInStatement == nil, let command, let token = failure.token,
            let place = TypedPlace(locating: token, in: command)
        else { return failure }
        failure.lineInStatement = place.lineInStatement
        // A predicate may hold several patterns: the one over budget is shown on one line too.
        if command.base.contains("\n") || error is MatchBudgetError { failure.message += "\n" + place.pointer }
        return failure
    }

    /// The word of the command a library error is about: the key path a fetch cannot use.
    private static func token(of error: any Error) -> String? {
        switch error {
        case FetchError.unknownKeyPath(_, let keyPath, _), FetchError.invalidSortKey(_, let keyPath, _),
            FetchError.invalidProperty(_, let keyPath, _):
            keyPath
        case StoreError.unknownKey(_, let key): key
        case let error as MatchBudgetError: error.pattern
        default: nil
        }
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
        case let error as PredicateEvaluationError where error.isInterruption: return ShellError("interrupted")
        default: return ShellError(message(for: error))
        }
    }

    /// A library error as the REPL says it: the library's own words (which speak of stores
    /// and models), followed by the REPL's remedy where it is one of its flags; Foundation's
    /// errors as the system's reason (see ``sentence(for:)``).
    static func message(for error: any Error) -> String {
        switch error {
        case StoreError.readOnly:
            return "\(error); writing needs --write"
        case ModelFileError.legacyFormat(let path, let reason):
            return "\(path): legacy Xcode 3 model (elements archive); open it in Xcode to convert it, or pass the store without --model (\(reason))"
        default:
            return sentence(for: error)
        }
    }

    /// An error as a sentence: GraphStore's and the shell's own errors say what they are;
    /// Foundation's (a file that cannot be read, …) give the system's reason rather than
    /// an `Error Domain=NSCocoaErrorDomain …` dump.
    static func sentence(for error: any Error) -> String {
        let bridged = error as NSError
        guard bridged.domain == NSCocoaErrorDomain || bridged.domain == NSPOSIXErrorDomain else { return "\(error)" }
        if let underlying = (bridged.userInfo[NSUnderlyingErrorKey] as? any Error).map({ $0 as NSError }), underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if bridged.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(bridged.code))) }
        return bridged.localizedDescription
    }
}
