import Foundation

/// Compiled MATCHES patterns, so filtering many objects compiles each pattern once.
///
/// Bounded: when full it is simply emptied, which keeps it small without bookkeeping.
final class RegexCache: @unchecked Sendable {
    static let shared = RegexCache()

    private struct Key: Hashable {
        var pattern: String
        var options: UInt
    }

    private let lock = NSLock()
    // Guarded by `lock`; nil records a pattern that does not compile.
    private var entries: [Key: NSRegularExpression?] = [:]
    private let capacity = 128

    /// The compiled pattern, or nil if it is not a valid ICU regular expression.
    func expression(_ pattern: String, options: NSRegularExpression.Options) -> NSRegularExpression? {
        let key = Key(pattern: pattern, options: options.rawValue)
        lock.lock()
        defer { lock.unlock() }
        if let cached = entries[key] { return cached }
        let compiled = try? NSRegularExpression(pattern: pattern, options: options)
        if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
        entries[key] = .some(compiled)
        return compiled
    }
}
