/// One command the shell understands: its name, the arguments it takes, help texts, and
/// what it does.
///
/// The arguments are declared once (``ArgumentSyntax``): the usage line, the usage error,
/// `.help`, completion and the manual come from the declaration, and `run` is called only
/// with words that fit it.
///
/// ```swift
/// static let entity = Placeholder("ENTITY", .entity)
/// static let command = ShellCommand(
///     "describe", arguments: [.value(entity)], summary: "describe an entity", example: "describe Book"
/// ) { shell, arguments in
///     let mapping = try shell.mapping(try arguments.word(entity))
///     shell.output("\(mapping.name): \(mapping.table)\n")
/// }
/// ```
public struct ShellCommand: Sendable {
    /// The name typed at the prompt (`.entities`, `fetch`).
    public var name: String
    /// Other names for the same command (`\d`, `.exit`).
    public var aliases: [String]
    /// The arguments the command takes.
    public var arguments: ArgumentSyntax
    /// One line for `.help`.
    public var summary: String
    /// An example for `.help CMD`.
    public var example: String
    /// More about the command, for `.help CMD` and the manual (may be empty).
    public var details: String
    /// Whether the command changes data (needs `--write`).
    public var writes: Bool
    /// Runs the command with the arguments typed after its name.
    public var run: @Sendable (Shell, ParsedArguments) throws -> Void

    /// Creates a command that takes `arguments` (none when empty).
    public init(
        _ name: String, aliases: [String] = [], arguments: [ArgumentElement] = [], summary: String, example: String,
        details: String = "", writes: Bool = false, run: @escaping @Sendable (Shell, ParsedArguments) throws -> Void
    ) {
        self.name = name
        self.aliases = aliases
        self.arguments = ArgumentSyntax(arguments)
        self.summary = summary
        self.example = example
        self.details = details
        self.writes = writes
        self.run = run
    }

    /// The usage line (`.rows ENTITY [LIMIT]`), written from the declaration.
    public var usage: String { arguments.usage(of: name) }
}
