/// The store's fetch machinery state: whether the predicate functions are registered on
/// the connection, the error one of them threw, what interrupts their regular expression
/// matches, and idle prepared fetch statements.
///
/// A statement is taken out of the pool while its rows are read, so a fetch started
/// while another one is being read (a fault fired from a row, a nested fetch) prepares
/// its own statement instead of resetting the one in use.
final class FetchSupport {
    var functionsRegistered = false
    /// What a predicate function threw during the statement being stepped: SQLite only
    /// keeps its text, and the fetch throws the error itself (a ``RegexMatchError``, a
    /// ``PredicateEvaluationError``) rather than an SQLite error quoting the SQL.
    var functionError: (any Error)?
    /// Stops MATCHES inside and outside SQL when the store is interrupted.
    let interruption = MatchInterruption()
    private var idle: [String: [Statement]] = [:]
    private var idleCount = 0
    private let capacity = 64

    /// An idle statement for this SQL, or nil when none is free.
    func take(_ sql: String) -> Statement? {
        guard var statements = idle[sql], let statement = statements.popLast() else { return nil }
        idle[sql] = statements
        idleCount -= 1
        return statement
    }

    /// Returns a statement to the pool, reset; a full pool is emptied first (no bookkeeping).
    func give(_ statement: Statement) {
        statement.reset()
        if idleCount >= capacity {
            idle.removeAll()
            idleCount = 0
        }
        idle[statement.sql, default: []].append(statement)
        idleCount += 1
    }
}
