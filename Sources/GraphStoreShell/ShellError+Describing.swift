import Foundation
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
        default: return ShellError(sentence(for: error))
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
