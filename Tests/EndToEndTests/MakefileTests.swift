import Foundation
import Testing
import TestScratch

/// `make test` ends by saying how many tests were skipped and why: a test that cannot run
/// here prints `skipped NAME: REASON` and passes, and `make skipped` counts those lines.
@Suite struct MakefileTests {
    static func make(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let (output, status) = try ExampleTests.run(URL(fileURLWithPath: "/usr/bin/make"), ["-s", "-C", GraphStoreBinary.packageRoot.path] + arguments)
        return (status, output)
    }

    @Test func skippedTestsAreCountedByReason() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/make") else {
            print("skipped skippedTestsAreCountedByReason: make is not installed")
            return
        }
        let log = try ScratchDirectory.make("make-log").appendingPathComponent("test.log").path
        try """
            ✔ Test something() passed after 0.001 seconds.
            skipped corpusA: ../shared/corpus is not present
            skipped corpusB: ../shared/corpus is not present
            skipped mandoc -Tlint of the manual: mandoc is not installed
            ✔ Test run with 3 tests passed.

            """.write(toFile: log, atomically: true, encoding: .utf8)
        let summary = try Self.make(["skipped", "TEST_LOG=\(log)"])
        #expect(summary.status == 0)
        #expect(summary.output == "3 test(s) skipped:\n  2 × ../shared/corpus is not present\n  1 × mandoc is not installed\n")
        try "✔ Test run with 3 tests passed.\n".write(toFile: log, atomically: true, encoding: .utf8)
        #expect(try Self.make(["skipped", "TEST_LOG=\(log)"]).output == "no test skipped\n")
    }

    /// Every test that skips says so in the form `make skipped` counts.
    @Test func everySkipIsSaidTheSameWay() throws {
        let tests = GraphStoreBinary.packageRoot.appendingPathComponent("Tests").path
        let files = FileManager.default.enumerator(atPath: tests)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        for file in files {
            let text = try String(contentsOfFile: tests + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains("print(\"") && line.lowercased().contains("skip") {
                #expect(line.contains("print(\"skipped ") && line.contains(": "), "\(file): \(line)")
            }
        }
    }
}
