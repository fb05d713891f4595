import Foundation

/// The environment variables graphstore reads.
///
/// Read one by one with `getenv`: building ProcessInfo's whole environment dictionary
/// costs more than a short run's real work.
public struct LaunchEnvironment: Sendable, Equatable {
    /// `HOME`: where `.graphstorerc` and `.graphstore_history` are.
    public var home: String?
    /// `GRAPHSTORE_HISTORY`: the history file (empty: none).
    public var history: String?
    /// `NO_COLOR`: no colour when set and not empty.
    public var noColor: String?
    /// `TERM`: `dumb` means no colour.
    public var term: String?
    /// `COLUMNS`: the width when the terminal does not say.
    public var columns: String?
    /// `LINES`: the height when the terminal does not say.
    public var lines: String?
    /// `PAGER`: the pager for results taller than the terminal (empty: none).
    public var pager: String?

    /// The process's environment.
    public static var current: LaunchEnvironment {
        func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
        return LaunchEnvironment(
            home: variable("HOME"), history: variable("GRAPHSTORE_HISTORY"), noColor: variable("NO_COLOR"),
            term: variable("TERM"), columns: variable("COLUMNS"), lines: variable("LINES"), pager: variable("PAGER"))
    }

    /// An environment with these values.
    public init(
        home: String? = nil, history: String? = nil, noColor: String? = nil, term: String? = nil, columns: String? = nil,
        lines: String? = nil, pager: String? = nil
    ) {
        self.home = home
        self.history = history
        self.noColor = noColor
        self.term = term
        self.columns = columns
        self.lines = lines
        self.pager = pager
    }

    /// The pager command: `PAGER`, else `less -FRSX`; nil when `PAGER` is empty (no pager).
    public var pagerCommand: String? {
        guard let pager else { return "less -FRSX" }
        return pager.allSatisfy(\.isWhitespace) ? nil : pager
    }
}
