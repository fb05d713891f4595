import Foundation
import Testing

@testable import GraphStore
@testable import GraphStoreShell

/// Every command's `.help` example, run in every output mode on the BookStore example and
/// compared with `Golden/<command>.txt`. The list comes from the shell itself, so commands
/// added later are covered as soon as they exist; their golden files are recorded with
/// `GRAPHSTORE_RECORD_GOLDEN=1 swift test --filter GoldenTests` and reviewed in the diff.
@Suite struct GoldenTests {
    static let commands: [String] = Shell(output: { _ in }, diagnostics: { _ in }).commands.map(\.name)
    static let goldenDirectory = ShellHarness.packageRoot + "/Tests/GraphStoreShellTests/Golden"
    static var recording: Bool { ProcessInfo.processInfo.environment["GRAPHSTORE_RECORD_GOLDEN"] == "1" }

    /// Runs the example, then `.entities` (so that a command's effect on later output shows:
    /// a mode, a redirection, a change), and records standard output, diagnostics, the exit
    /// status and any file the command wrote.
    static func transcript(of name: String) throws -> String {
        var text = ""
        for mode in OutputMode.allCases {
            let probe = try ShellHarness()
            guard let command = probe.shell.command(named: name) else { throw ShellError("no command \(name)") }
            let harness = command.writes ? try ShellHarness(write: true) : probe
            harness.shell.settings.mode = mode
            let before = Set(try FileManager.default.contentsOfDirectory(atPath: harness.directory))
            let status = harness.run([command.example, ".entities"], bail: true, name: "example")
            try harness.shell.endRedirection()
            text += "== \(mode.rawValue): \(command.example)\n" + harness.stable(harness.output)
            if !harness.diagnostics.isEmpty { text += "-- diagnostics\n" + harness.stable(harness.diagnostics) }
            if status != 0 { text += "-- status \(status)\n" }
            let after = try FileManager.default.contentsOfDirectory(atPath: harness.directory).filter { !before.contains($0) }.sorted()
            for file in after {
                text += "-- file \(file)\n" + (try String(contentsOfFile: harness.directory + "/" + file, encoding: .utf8))
            }
        }
        return text
    }

    static func goldenPath(_ name: String) -> String {
        // `.show` and `show` are different commands: the dot is spelt out.
        let base = name.map { $0.isLetter || $0.isNumber ? String($0) : $0 == "." ? "dot-" : "_" }.joined()
        return goldenDirectory + "/\(base).txt"
    }

    @Test(arguments: commands) func everyModeMatchesItsGoldenFile(command: String) throws {
        let actual = try Self.transcript(of: command)
        let path = Self.goldenPath(command)
        if Self.recording {
            try actual.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOfFile: path, encoding: .utf8) else {
            Issue.record("no golden output for \(command) at \(path); record it with GRAPHSTORE_RECORD_GOLDEN=1 swift test --filter GoldenTests")
            return
        }
        #expect(actual == expected, "\(command) differs from \(path); if the change is intended, record it again")
    }

    /// Golden files of commands that no longer exist would never be checked again.
    @Test func everyGoldenFileBelongsToACommand() throws {
        let expected = Set(Self.commands.map { (Self.goldenPath($0) as NSString).lastPathComponent })
        let present = try FileManager.default.contentsOfDirectory(atPath: Self.goldenDirectory).filter { $0.hasSuffix(".txt") }
        for file in present where !file.hasPrefix("session-") {
            #expect(expected.contains(file), "\(file) matches no command")
        }
    }

    /// A whole session in every mode: the example script that ships with the BookStore.
    @Test(arguments: OutputMode.allCases) func inspectScript(mode: OutputMode) throws {
        let harness = try ShellHarness()
        harness.shell.settings.mode = mode
        let status = harness.run([".read examples/BookStore/inspect.graphstore"])
        let actual = harness.stable(harness.output) + harness.stable(harness.diagnostics) + "-- status \(status)\n"
        let path = Self.goldenDirectory + "/session-inspect.\(mode.rawValue).txt"
        if Self.recording {
            try actual.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOfFile: path, encoding: .utf8)
        #expect(actual == expected)
    }
}
