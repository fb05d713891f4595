/// One command the shell understands: its name, help texts, and what it does.
///
/// `run` gets the shell, the words after the command name, and the raw text after it
/// (commands that take a predicate parse the raw text themselves).
public struct ShellCommand: Sendable {
    /// The name typed at the prompt (`.entities`, `fetch`).
    public var name: String
    /// Other names for the same command (`\d`, `.exit`).
    public var aliases: [String]
    /// The usage line (`.rows ENTITY [LIMIT]`).
    public var usage: String
    /// One line for `.help`.
    public var summary: String
    /// An example for `.help CMD`.
    public var example: String
    /// More about the command, for `.help CMD` and the manual (may be empty).
    public var details: String
    /// Whether the command changes data (needs `--write`).
    public var writes: Bool
    /// Runs the command.
    public var run: @Sendable (Shell, [String], Substring) throws -> Void

    /// Creates a command.
    public init(
        _ name: String, aliases: [String] = [], usage: String, summary: String, example: String, details: String = "",
        writes: Bool = false, run: @escaping @Sendable (Shell, [String], Substring) throws -> Void
    ) {
        self.name = name
        self.aliases = aliases
        self.usage = usage
        self.summary = summary
        self.example = example
        self.details = details
        self.writes = writes
        self.run = run
    }
}
