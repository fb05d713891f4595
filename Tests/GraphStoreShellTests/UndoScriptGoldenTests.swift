import Foundation
import Testing
@testable import GraphStoreShell

/// `examples/BookStore/undo.graphstore` (the chapter's undo scenarios) against its recorded
/// output beside it, `undo.expected` (outside any target, so SwiftPM leaves it alone).
/// Record again with
/// `GRAPHSTORE_RECORD_GOLDEN=1 swift test --filter UndoScriptGoldenTests` and review the diff.
@Suite struct UndoScriptGoldenTests {
    @Test func theBookStoreUndoScriptMatchesItsGoldenOutput() throws {
        let root = UndoShellRun.packageRoot
        let script = try String(contentsOfFile: root + "/examples/BookStore/undo.graphstore", encoding: .utf8)
        let run = try UndoShellRun()
        let status = run.run(script.components(separatedBy: "\n"))
        let actual = run.output + run.diagnostics + "-- status \(status)\n"
        let path = root + "/examples/BookStore/undo.expected"
        if ProcessInfo.processInfo.environment["GRAPHSTORE_RECORD_GOLDEN"] == "1" {
            try actual.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOfFile: path, encoding: .utf8)
        #expect(actual == expected, "the undo script's output differs from \(path); if intended, record it again")
    }
}
