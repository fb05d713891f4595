/// `.pager on|off|auto`: when a result of a command typed at the prompt goes through the
/// pager (`$PAGER`, by default `less -FRSX`). Scripts and piped output are never paged.
public enum PagerSetting: String, Sendable, CaseIterable {
    /// Every result.
    case on
    /// None.
    case off
    /// A result taller than the terminal (the default).
    case auto
}
