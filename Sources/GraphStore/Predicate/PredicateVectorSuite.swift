import Foundation

/// Runs a file of predicate vectors and tallies the results per construct.
///
/// ```swift
/// let report = try PredicateVectorSuite.run(fileAt: URL(fileURLWithPath: "vectors.jsonl"))
/// print(report.summary)   // "326 passed, 0 failed"
/// ```
public enum PredicateVectorSuite {
    /// The outcome of a run.
    ///
    /// ```swift
    /// let report = PredicateVectorSuite.run(jsonLines: text)
    /// for (id, reason) in report.failures { print(id, reason) }
    /// ```
    public struct Report: Sendable {
        /// Failed vectors, in file order: id (or `line N`) and why.
        public var failures: [(id: String, reason: String)] = []
        /// Per construct, in first-seen order: passed and total.
        public var constructs: [(name: String, passed: Int, total: Int)] = []
        /// How many vectors passed.
        public var passed = 0
        /// How many vectors failed.
        public var failed: Int { failures.count }

        /// `N passed, M failed`.
        public var summary: String { "\(passed) passed, \(failed) failed" }

        mutating func record(construct: String, id: String, failure: String?) {
            if let index = constructs.firstIndex(where: { $0.name == construct }) {
                constructs[index].total += 1
                if failure == nil { constructs[index].passed += 1 }
            } else {
                constructs.append((construct, failure == nil ? 1 : 0, 1))
            }
            if let failure { failures.append((id, failure)) } else { passed += 1 }
        }
    }

    /// Runs every vector in a JSON-lines file; blank lines are skipped, bad lines fail.
    public static func run(fileAt url: URL) throws -> Report {
        let text = try String(contentsOf: url, encoding: .utf8)
        return run(jsonLines: text)
    }

    /// Runs every vector in JSON-lines text.
    public static func run(jsonLines text: String) -> Report {
        var report = Report()
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { continue }
            do {
                let vector = try PredicateVector(jsonLine: trimmed)
                report.record(construct: vector.construct, id: vector.id, failure: vector.check())
            } catch {
                report.record(construct: "unreadable", id: "line \(number + 1)", failure: "cannot read vector: \(error)")
            }
        }
        return report
    }
}
