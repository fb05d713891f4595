/// A MATCHES that could not be decided: the pattern needed more work or memory on one
/// string than GraphStore allows, or the match was interrupted.
///
/// Foundation would either run on for as long as the pattern takes or answer "no match"
/// after ICU gives up; GraphStore reports that it could not tell instead.
///
/// ```swift
/// let p = try ObjectPredicate(format: "SELF MATCHES '(a+)+b'")
/// try p.evaluate(withValue: .string(String(repeating: "a", count: 40)))
/// // throws: MATCHES gave up on the pattern '(a+)+b': more than 10000000 backtracking steps on one string (the limit)
/// ```
public struct RegexMatchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the match stopped.
    public enum Reason: Sendable, Hashable {
        /// The match needed more than this many backtracking steps.
        case stepLimit(Int)
        /// The match needed more than this many bytes of backtracking memory.
        case memoryLimit(Int)
        /// The store running the match was interrupted (``StoreInterrupter``, Ctrl-C in the REPL).
        case interrupted
        /// ICU failed for another reason, named by its error code (`U_MEMORY_ALLOCATION_ERROR`).
        case engineFailure(String)
    }

    /// The pattern as the predicate gave it (the description shows an excerpt of a long one).
    public var pattern: String
    /// Why the match stopped.
    public var reason: Reason

    /// An error for `pattern`.
    public init(pattern: String, reason: Reason) {
        self.pattern = pattern
        self.reason = reason
    }

    /// Whether the match stopped because it was interrupted, not because of a limit.
    public var isInterruption: Bool { reason == .interrupted }

    /// `MATCHES gave up on the pattern '(a+)+b': more than 10000000 backtracking steps on one string (the limit)`.
    public var description: String {
        let quoted = "'\(TextExcerpt(pattern, around: 0, width: TextExcerpt.quotedWidth).text)'"
        switch reason {
        case .stepLimit(let steps):
            return "MATCHES gave up on the pattern \(quoted): more than \(steps) backtracking steps on one string (the limit)"
        case .memoryLimit(let bytes):
            return "MATCHES gave up on the pattern \(quoted): more than \(bytes) bytes of backtracking memory on one string (the limit)"
        case .interrupted:
            return "MATCHES on the pattern \(quoted) was interrupted"
        case .engineFailure(let code):
            return "MATCHES failed on the pattern \(quoted): ICU error \(code)"
        }
    }
}
