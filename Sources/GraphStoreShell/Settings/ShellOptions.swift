/// Switches that change how commands run rather than how results look.
public struct ShellOptions: Sendable {
    /// Stop a script at its first failing command (`--bail`, `.bail on`).
    public var bail = false
    /// Print each command before running it (`.echo on`).
    public var echo = false
    /// Print the time each command took, on standard error (`.timer on`).
    public var timer = false
    /// Print a summary of unsaved changes after each command that altered them (`.changes on`).
    public var changes = false
    /// When results typed for at the prompt go through the pager (`.pager`).
    public var pager = PagerSetting.auto
    /// A warning (values shown in place of ones that could not be read, storage anomalies)
    /// makes the exit status ``ExitStatus/warnings`` (`--strict`); without it they are
    /// warnings only.
    public var strict = false
    /// The default options.
    public init() {}
}
