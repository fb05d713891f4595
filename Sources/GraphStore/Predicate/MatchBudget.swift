import Synchronization

/// The work MATCHES and LIKE may do over one operation, all the strings they compare
/// together: a pattern that is slow on every row of a large fetch stops at the budget with a
/// ``MatchBudgetError``, rather than running on for minutes (each string has its own, smaller
/// limit too: ``RegexMatchError``).
///
/// A store operation (a fetch, a count, read-only SQL) has a budget of its own unless it
/// runs inside ``withBudget(_:)``, which makes everything inside one operation: the REPL
/// gives each command one, so a command of several fetches shares it.
///
/// Work is counted in backtracking steps for MATCHES (ICU counts them in units of 10,000,
/// so a match of fewer costs nothing) and in character comparisons for LIKE (also counted
/// in units of 10,000). Core Data sets no such limit.
///
/// ```swift
/// try MatchBudget().withBudget {
///     let titled = try context.fetch(FetchRequest(entityName: "Book", format: "title MATCHES '(a*)*b'"))
/// }   // throws MatchBudgetError once the matches have taken 100,000,000 steps together
/// ```
public final class MatchBudget: Sendable {
    /// The steps an operation may take unless it says otherwise: one hundred million, some
    /// 1.5 s of matching on the development machine, ten times what one string may take.
    public static let defaultSteps = 100_000_000

    /// The steps this budget allows.
    public let steps: Int
    private let spent = Atomic<Int>(0)

    /// The budget of the operation running on this thread, if any.
    @TaskLocal static var current: MatchBudget?

    /// A budget of `steps`.
    public init(steps: Int = MatchBudget.defaultSteps) {
        self.steps = steps
    }

    /// Runs `body` with this budget: every MATCHES and LIKE it runs, in SQL or in memory,
    /// on any store, draws on it.
    public func withBudget<Result>(_ body: () throws -> Result) rethrows -> Result {
        try MatchBudget.$current.withValue(self, operation: body)
    }

    /// Runs a store operation with a budget: the one it runs inside, or one of its own.
    static func forOperation<Result>(_ body: () throws -> Result) rethrows -> Result {
        if current != nil { return try body() }
        return try MatchBudget().withBudget(body)
    }

    /// Takes `count` steps from the budget; false when it is spent.
    func spend(_ count: Int) -> Bool {
        spent.wrappingAdd(count, ordering: .relaxed).newValue <= steps
    }

    /// Whether the budget has been spent.
    var isSpent: Bool { spent.load(ordering: .relaxed) > steps }

    /// The error for a comparison (`MATCHES`, `LIKE`) that found the budget spent.
    func spentError(_ operatorName: String, pattern: String) -> MatchBudgetError {
        MatchBudgetError(operatorName: operatorName, pattern: pattern, steps: steps)
    }
}

/// An operation whose MATCHES and LIKE comparisons, over all the strings they compared,
/// took more work than its ``MatchBudget``: the operation stops there.
///
/// ```swift
/// do { _ = try context.fetch(request) }
/// catch let error as MatchBudgetError { print(error) }
/// // MATCHES '(a*)*b' went past the budget of one operation: 100000000 steps of MATCHES and LIKE …
/// ```
public struct MatchBudgetError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The comparison that found the budget spent: `MATCHES` or `LIKE`.
    public var operatorName: String
    /// Its pattern, as the predicate gave it.
    public var pattern: String
    /// The budget, in steps.
    public var steps: Int

    /// An error for `pattern`.
    public init(operatorName: String, pattern: String, steps: Int) {
        self.operatorName = operatorName
        self.pattern = pattern
        self.steps = steps
    }

    /// `MATCHES '(a*)*b' went past the budget of one operation: …`.
    public var description: String {
        let quoted = "'\(TextExcerpt(pattern, around: 0, width: TextExcerpt.quotedWidth).text)'"
        return "\(operatorName) \(quoted) went past the budget of one operation: \(steps) steps of MATCHES and LIKE "
            + "over all the strings compared (narrow the fetch with another condition, or simplify the pattern)"
    }
}
