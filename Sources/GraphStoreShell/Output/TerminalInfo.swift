import Foundation

/// What the shell knows about the terminal its standard output is: its width (asked each
/// time, since the window can be resized between commands) and whether colour is allowed.
public struct TerminalInfo: Sendable {
    /// The file descriptor of the terminal.
    public var fileDescriptor: Int32
    /// Whether colour may be used: a terminal, `NO_COLOR` unset, `TERM` not `dumb`.
    public var colour: Bool
    /// `COLUMNS`, for a terminal that does not say how wide it is.
    private var columnsVariable: Int?
    /// `LINES`, for a terminal that does not say how tall it is.
    private var linesVariable: Int?

    /// The terminal on `fileDescriptor`, or nil when it is not a terminal.
    public init?(fileDescriptor: Int32, environment: LaunchEnvironment) {
        guard isatty(fileDescriptor) == 1 else { return nil }
        self.fileDescriptor = fileDescriptor
        self.colour = Self.allowsColour(environment)
        self.columnsVariable = environment.columns.flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        self.linesVariable = environment.lines.flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
    }

    /// Whether the environment allows colour on a terminal: https://no-color.org says any
    /// non-empty `NO_COLOR` turns it off, and a `dumb` terminal has none.
    static func allowsColour(_ environment: LaunchEnvironment) -> Bool {
        let noColour = environment.noColor.map { !$0.isEmpty } ?? false
        return !noColour && environment.term != "dumb"
    }

    /// The number of columns, from the terminal, else `COLUMNS`, else 80.
    public var columns: Int {
        var size = winsize()
        if ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return columnsVariable ?? 80
    }

    /// The number of rows, from the terminal, else `LINES`, else 24.
    public var rows: Int {
        var size = winsize()
        if ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 { return Int(size.ws_row) }
        return linesVariable ?? 24
    }
}
