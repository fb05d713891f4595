import Foundation
import Testing

@testable import GraphStore

/// Where the shared vector file lives: `../shared/corpus/predicates/vectors.jsonl` from
/// the package root.
enum PredicateVectorCorpus {
    static var url: URL? {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Predicate
            .deletingLastPathComponent()  // GraphStoreTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()  // package root
        let file = root.deletingLastPathComponent().appendingPathComponent("shared/corpus/predicates/vectors.jsonl")
        return FileManager.default.fileExists(atPath: file.path) ? file : nil
    }
}

@Suite("Predicate vector corpus")
struct PredicateVectorCorpusTests {
    @Test("every shared vector passes")
    func sharedVectors() throws {
        guard let url = PredicateVectorCorpus.url else {
            if ProcessInfo.processInfo.environment["GRAPHSTORE_REQUIRE_CORPUS"] == "1" {
                Issue.record("the predicate vector corpus is missing and GRAPHSTORE_REQUIRE_CORPUS=1")
            } else {
                print("skipped shared predicate vectors: ../shared/corpus/predicates/vectors.jsonl is not present")
            }
            return
        }
        let report = try PredicateVectorSuite.run(fileAt: url)
        for failure in report.failures { Issue.record("\(failure.id): \(failure.reason)") }
        #expect(report.failed == 0)
        #expect(report.passed > 0)
    }

    @Test("the suite reports failures and per-construct counts")
    func reporting() {
        let lines = """
            {"id": "cmp-001", "format": "age = 30", "object": {"age": 30}, "expect": true, "canonical": "age == 30"}
            {"id": "cmp-002", "format": "age = 30", "object": {"age": 31}, "expect": true}
            {"id": "bad-001", "format": "age ==", "object": {}, "expect": "parse_error"}
            {"id": "ev-001", "format": "tags[3] == 1", "object": {"tags": []}, "expect": "eval_error"}
            {"id": "dt-001", "format": "d == %@", "object": {"d": {"$date": "2020-01-01T00:00:00Z"}}, "expect": true, "args": [{"$date": "2020-01-01T00:00:00Z"}]}
            """
        let report = PredicateVectorSuite.run(jsonLines: lines)
        #expect(report.summary == "4 passed, 1 failed")
        #expect(report.failures.first?.id == "cmp-002")
        #expect(report.constructs.first.map { [$0.name, "\($0.passed)", "\($0.total)"] } == ["cmp", "1", "2"])
    }
}
