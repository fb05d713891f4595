import Foundation

/// Compiled MATCHES patterns, so filtering many objects compiles each pattern once.
///
/// A compiled expression also holds ICU's matcher state, so it is lent to one caller at a
/// time: a thread that finds every copy of its pattern in use compiles another. Bounded:
/// when full it is simply emptied, which keeps it small without bookkeeping.
final class RegexCache: @unchecked Sendable {
    static let shared = RegexCache()

    private struct Key: Hashable {
        var pattern: String
        var caseInsensitive: Bool
    }

    private let lock = NSLock()
    // Guarded by `lock`: idle compiled expressions, and the patterns ICU rejects.
    private var idle: [Key: [ICURegularExpression]] = [:]
    private var invalid: Set<Key> = []
    private let capacity = 128

    /// Whether ICU accepts the pattern.
    func isValid(_ pattern: String, caseInsensitive: Bool) -> Bool {
        guard let expression = borrow(Key(pattern: pattern, caseInsensitive: caseInsensitive)) else { return false }
        giveBack(expression, Key(pattern: pattern, caseInsensitive: caseInsensitive))
        return true
    }

    /// Runs `body` with the compiled pattern, which no one else uses meanwhile; nil when
    /// the pattern is not a valid ICU regular expression.
    func withExpression<Result, Failure>(
        _ pattern: String, caseInsensitive: Bool, _ body: (ICURegularExpression) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        let key = Key(pattern: pattern, caseInsensitive: caseInsensitive)
        guard let expression = borrow(key) else { return nil }
        defer { giveBack(expression, key) }
        return try body(expression)
    }

    private func borrow(_ key: Key) -> ICURegularExpression? {
        lock.lock()
        if invalid.contains(key) {
            lock.unlock()
            return nil
        }
        if let expression = idle[key]?.popLast() {
            lock.unlock()
            return expression
        }
        lock.unlock()
        // Compiled outside the lock: a long pattern does not hold up other threads.
        let compiled = ICURegularExpression(pattern: key.pattern, caseInsensitive: key.caseInsensitive)
        if compiled == nil {
            lock.lock()
            if invalid.count >= capacity { invalid.removeAll(keepingCapacity: true) }
            invalid.insert(key)
            lock.unlock()
        }
        return compiled
    }

    private func giveBack(_ expression: ICURegularExpression, _ key: Key) {
        lock.lock()
        defer { lock.unlock() }
        if idle.count >= capacity, idle[key] == nil { idle.removeAll(keepingCapacity: true) }
        idle[key, default: []].append(expression)
    }
}
