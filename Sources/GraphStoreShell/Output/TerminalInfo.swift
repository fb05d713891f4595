import Foundation

/// What the shell knows about the terminal its standard output is: its width (asked each
/// time, since the window can be resized between commands) and whether colour is allowed.
public struct TerminalInfo: Sendable {
    /// The file descriptor of the terminal.
    public var fileDescriptor: Int32
    /// Whether colour may be used: a terminal, `NO_COLOR` unset, `TERM` not `dumb`.
    public var colour: Bool

    /// The terminal on `fileDescriptor`, or nil when it is not a terminal.
    public init?(fileDescriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard isatty(fileDescriptor) == 1 else { return nil }
        self.fileDescriptor = fileDescriptor
        self.colour = Self.allowsColour(environment)
    }

    /// Whether the environment allows colour on a terminal: https://no-color.org says any
    /// non-empty `NO_COLOR` turns it off, and a `dumb` terminal has none.
    static func allowsColour(_ environment: [String: String]) -> Bool {
        let noColour = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        return !noColour && environment["TERM"] != "dumb"
    }

    /// The number of columns, from the terminal, else `COLUMNS`, else 80.
    public var columns: Int {
        var size = winsize()
        if ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let text = ProcessInfo.processInfo.environment["COLUMNS"], let n = Int(text), n > 0 { return n }
        return 80
    }
}
