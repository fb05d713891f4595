/// A format string that is not a valid predicate, with where and what was wrong.
///
/// `column` is 1-based and counts Unicode scalars from the start of the format string;
/// a problem at the end of the text has the column just past the last character.
///
/// ```swift
/// do { _ = try ObjectPredicate(format: "name == ") }
/// catch let error as PredicateParseError { print(error) }   // col 9: expected a value after '=='
/// ```
public struct PredicateParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based column of the offending token.
    public var column: Int
    /// What the parser expected there, or what is wrong (`expected a value after '=='`).
    public var message: String

    /// An error at `column` (1-based) saying `message`.
    public init(column: Int, message: String) {
        self.column = column
        self.message = message
    }

    /// `col 14: expected a value after '=='`.
    public var description: String { "col \(column): \(message)" }
}

/// A predicate that parsed but cannot be evaluated against a given object, where
/// Foundation would raise an exception.
///
/// ```swift
/// let p = try ObjectPredicate(format: "$limit > 1")
/// try p.evaluate(with: [:])   // throws: no value for variable $limit
/// ```
public struct PredicateEvaluationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public var message: String

    /// An error saying `message`.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }

    /// The evaluation was stopped by an interrupt of the store operation running it
    /// (``StoreInterrupter``, Ctrl-C in the REPL).
    public static let interrupted = PredicateEvaluationError("the evaluation was interrupted")

    /// Whether this says that the evaluation was interrupted.
    public var isInterruption: Bool { self == Self.interrupted }
}
