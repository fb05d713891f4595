/// How much one line, and one statement continued over several lines, may hold.
///
/// No real script comes near; input with no line ends at all (`.read /dev/zero`, a binary
/// file read by mistake) reaches the limit at once and is refused, where it would otherwise
/// fill memory without end. The manual's DESCRIPTION and `.help .read` name the limit.
enum InputLimits {
    /// The most bytes a line may hold.
    static let lineBytes = 4 << 20
    /// The most bytes a statement may hold, its lines together.
    static let statementBytes = 4 << 20
    /// The limits as the messages and the manual name them.
    static let described = "4 MiB"

    static let lineTooLong = "line longer than \(described), the most a line may hold"
    static let statementTooLong = "statement continued past \(described), the most a statement may hold"
}
