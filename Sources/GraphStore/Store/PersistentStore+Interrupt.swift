import CSQLite

/// Stops the SQL a store is running, from outside the code running it: another thread, or
/// a `SIGINT` handler (which is how the REPL's Ctrl-C ends a long fetch).
///
/// The statement being stepped fails with SQLite's `SQLITE_INTERRUPT` (code 9), and a
/// MATCHES being decided, inside the SQL or in memory, with a ``RegexMatchError`` whose
/// ``RegexMatchError/isInterruption`` is true; statements started afterwards run normally.
/// An interrupter is valid only while its store is open.
///
/// ```swift
/// let interrupter = store.interrupter
/// DispatchQueue.global().asyncAfter(deadline: .now() + 1) { interrupter.interrupt() }
/// try store.forEachRow(of: mapping) { _ in }     // throws StoreError.sqlite (code 9) if still running
/// ```
public struct StoreInterrupter: @unchecked Sendable {
    // sqlite3_interrupt may be called from any thread, and from a signal handler: it only
    // sets a flag that the running statement checks. The match flag is a lock-free atomic.
    private let handle: OpaquePointer
    private let matches: MatchInterruption

    init(handle: OpaquePointer, matches: MatchInterruption) {
        self.handle = handle
        self.matches = matches
    }

    /// Makes the statement the store is running, if any, fail with `SQLITE_INTERRUPT`, and
    /// a regular expression match it is running stop.
    public func interrupt() {
        matches.interrupt()
        sqlite3_interrupt(handle)
    }
}

extension PersistentStore {
    /// An interrupter for this store's connection.
    public var interrupter: StoreInterrupter {
        StoreInterrupter(handle: connection.handle, matches: fetchSupport.interruption)
    }
}

extension StoreError {
    /// Whether the error is SQLite reporting an interrupted statement (see ``StoreInterrupter``);
    /// an interrupted MATCHES is a ``RegexMatchError`` instead.
    public var isInterruption: Bool {
        if case .sqlite(let error) = self { return error.code == SQLITE_INTERRUPT }
        return false
    }
}

extension SQLiteError {
    /// Whether SQLite stopped the statement because it was interrupted (see ``StoreInterrupter``).
    public var isInterruption: Bool { code == SQLITE_INTERRUPT }
}
