/// The few ANSI styles results use on a colour terminal: bold headers, dim NULLs and
/// borders, red error labels. Nothing else is coloured, so output stays readable on any theme.
enum TerminalStyle: String {
    case bold = "\u{1b}[1m"
    case dim = "\u{1b}[2m"
    case red = "\u{1b}[31m"

    static let reset = "\u{1b}[0m"

    /// `text` in this style, or unchanged when colour is off.
    func apply(_ text: String, if enabled: Bool) -> String {
        enabled && !text.isEmpty ? rawValue + text + TerminalStyle.reset : text
    }
}
