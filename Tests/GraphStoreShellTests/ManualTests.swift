import Foundation
import Testing

@testable import GraphStoreShell

/// `man/graphstore.1` documents every command, flag, mode, variable and exit code, and
/// lints clean.
@Suite struct ManualTests {
    static let path = ShellHarness.packageRoot + "/man/graphstore.1"

    static func manual() throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    /// The COMMANDS block is the one written from the command list (recorded with
    /// GRAPHSTORE_RECORD_GOLDEN=1, like the golden transcripts).
    @Test func everyCommandHasItsSection() throws {
        let commands = Shell(output: { _ in }, diagnostics: { _ in }).commands
        let generated = ManualPage.commandSection(commands)
        var text = try Self.manual()
        let begin = try #require(text.range(of: ManualPage.beginMarker + "\n"))
        let end = try #require(text.range(of: ManualPage.endMarker + "\n"))
        let current = String(text[begin.lowerBound..<end.upperBound])
        if GoldenTests.recording, current != generated {
            text.replaceSubrange(begin.lowerBound..<end.upperBound, with: generated)
            try text.write(toFile: Self.path, atomically: true, encoding: .utf8)
            return
        }
        #expect(current == generated, "man/graphstore.1 is out of date; regenerate with GRAPHSTORE_RECORD_GOLDEN=1 swift test --filter ManualTests")
        for command in commands {
            #expect(current.contains(".SS \"\(ManualPage.escape(command.usage, inQuotes: true))\""), "\(command.name)")
        }
    }

    @Test func everyOptionModeVariableAndExitCode() throws {
        let text = try Self.manual()
        for option in LaunchOptions.longOptions {
            #expect(text.contains(ManualPage.escape(option)), "\(option)")
        }
        for short in ["\\-c", "\\-f", "\\-h", "\\-V"] { #expect(text.contains(".BI \(short)") || text.contains(".BR \(short)"), "\(short)") }
        for mode in OutputMode.allCases { #expect(text.contains(".B \(mode.rawValue)\n"), "\(mode)") }
        for variable in ["GRAPHSTORE_HISTORY", "NO_COLOR", "HOME", "TERM", "EDITRC", "COLUMNS", "LINES", "PAGER"] {
            #expect(text.contains(".B \(variable)\n"), "\(variable)")
        }
        let status = try #require(text.range(of: ".SH EXIT STATUS"))
        for code in 0...5 { #expect(text[status.upperBound...].contains(".B \(code)\n"), "exit status \(code)") }
    }

    /// `mandoc -Tlint` reports nothing, and `groff -ww` renders without warnings. `make
    /// deps` installs mandoc; with `GRAPHSTORE_REQUIRE_MAN_LINTER=1` (set by CI) a missing
    /// mandoc fails the test, otherwise the test says what it skipped.
    @Test func lintsClean() throws {
        if let mandoc = Self.tool("mandoc") {
            let (status, output) = try Self.run(mandoc, ["-Tlint", Self.path])
            #expect(status == 0 && output.isEmpty, "mandoc -Tlint: \(output)")
        } else if ProcessInfo.processInfo.environment["GRAPHSTORE_REQUIRE_MAN_LINTER"] == "1" {
            Issue.record("mandoc is not installed but GRAPHSTORE_REQUIRE_MAN_LINTER=1: the manual was not linted (make deps installs it)")
        } else {
            print("skipped mandoc -Tlint of the manual: mandoc is not installed (make deps installs it)")
        }
        if let groff = Self.tool("groff") {
            let (status, output) = try Self.run(groff, ["-ww", "-z", "-man", Self.path])
            #expect(status == 0 && output.isEmpty, "groff -ww: \(output)")
        } else {
            print("skipped groff -ww of the manual: groff is not installed")
        }
    }

    static func tool(_ name: String) -> String? {
        ["/usr/bin/", "/usr/local/bin/", "/bin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func run(_ tool: String, _ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
