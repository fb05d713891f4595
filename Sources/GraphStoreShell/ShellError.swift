import Foundation

/// A command that could not run, with the message shown to the user.
public struct ShellError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in a sentence.
    public var message: String
    /// The exit code a script should end with because of it (1 unless said otherwise).
    public var exitCode: Int32
    /// The line of the statement the fault is on (from 1), when the message points at a
    /// place in it: a script's `FILE:LINE:` then names that line, not the statement's first.
    var lineInStatement: Int?
    /// The word the message is about (a key, an entity, a clause), which the session finds
    /// in the command to name the line it is on; nil when it points nowhere.
    var token: String?

    /// Creates an error.
    public init(_ message: String, exitCode: Int32 = ExitStatus.commandFailed) {
        self.message = message
        self.exitCode = exitCode
    }

    /// An error about `token`, a word typed in the command.
    init(_ message: String, token: String) {
        self.init(message)
        self.token = token
    }

    /// An error about the place `offset` scalars into `text`, a slice of the statement:
    /// the line of the statement it is on is kept for the message's `FILE:LINE:`.
    init(_ message: String, at place: TypedPlace) {
        self.init(message)
        lineInStatement = place.lineInStatement
    }

    public var description: String { message }
}

/// The exit codes of `graphstore`, as documented in `--help`, docs/scripts.md and the manual.
public enum ExitStatus {
    /// Everything succeeded.
    public static let success: Int32 = 0
    /// A command failed.
    public static let commandFailed: Int32 = 1
    /// The command line was wrong.
    public static let usage: Int32 = 2
    /// `validate` found failures, or validation refused a `save`.
    public static let validationFailures: Int32 = 3
    /// The store could not be opened.
    public static let storeNotOpened: Int32 = 4
    /// A script ended with changes it had not saved (they are discarded), and
    /// `--discard-unsaved` was not given.
    public static let unsavedChanges: Int32 = 5
    /// With `--strict`: a command gave a warning: values it could not read (a missing
    /// external data file, text where a date is stored), each shown in its place, or the
    /// storage anomalies `validate` found.
    public static let warnings: Int32 = 6
    /// Standard output is a pipe nobody reads any more (`graphstore … | head -1`): the
    /// process ends by `SIGPIPE`, which a shell reports as 128 + 13.
    public static let closedPipe: Int32 = 128 + SIGPIPE
}
