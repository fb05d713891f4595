import Synchronization

/// Stops the regular expression matches (MATCHES) a store operation runs, from another
/// thread or a signal handler: ``StoreInterrupter/interrupt()`` sets it beside
/// `sqlite3_interrupt`, which cannot reach into one long call of an SQL function.
///
/// A store binds its interruption to the thread while it runs a fetch (``watching(_:)``),
/// so that a match inside SQL (`GS_MATCHES`) and one evaluated in memory both see it.
/// Like `sqlite3_interrupt`, an interrupt while nothing runs is forgotten: the outermost
/// operation clears the flag when it starts.
final class MatchInterruption: Sendable {
    private let requested = Atomic<Bool>(false)
    private let progressObserver = Mutex<(@Sendable () -> Void)?>(nil)

    /// The interruption of the store operation running on this thread, if any.
    @TaskLocal static var current: MatchInterruption?

    /// Makes the running match stop. Lock-free, so safe in a signal handler.
    func interrupt() { requested.store(true, ordering: .relaxed) }

    /// Whether ``interrupt()`` was called since the operation started.
    var isRequested: Bool { requested.load(ordering: .relaxed) }

    /// Runs `body` with this interruption watched by every match on the thread.
    func watching<Result>(_ body: () throws -> Result) rethrows -> Result {
        if MatchInterruption.current === self { return try body() }
        requested.store(false, ordering: .relaxed)
        return try MatchInterruption.$current.withValue(self, operation: body)
    }

    /// For tests: `observer` runs on the matching thread each time a long match checks for
    /// an interrupt (every 10,000 backtracking steps), just before it checks; it shows that
    /// a match has started without waiting for one.
    func observeProgress(_ observer: (@Sendable () -> Void)?) {
        progressObserver.withLock { $0 = observer }
    }

    /// Called by the match as it checks.
    func matchDidProgress() {
        progressObserver.withLock { $0 }?()
    }
}
