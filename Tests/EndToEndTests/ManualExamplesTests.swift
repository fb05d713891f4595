import Foundation
import Testing

/// The EXAMPLES of `man/graphstore.1` are real transcripts: each command is run with the
/// built `graphstore` first on the PATH, and what it prints must be what the manual shows.
/// `GRAPHSTORE_RECORD_GOLDEN=1` writes the outputs back into the manual.
@Suite struct ManualExamplesTests {
    static let manual = GraphStoreBinary.packageRoot.appendingPathComponent("man/graphstore.1").path

    struct Example {
        var command: String
        var output: String
        /// The lines of the manual the output occupies.
        var outputLines: Range<Int>
    }

    /// The `.EX` blocks of the EXAMPLES section that start with `$ `, except one marked
    /// interactive; a command goes on over lines ending in `\` or `|`.
    static func examples(in lines: [String]) -> [Example] {
        guard let begin = lines.firstIndex(of: #".\" BEGIN EXAMPLES"#), let end = lines.firstIndex(of: #".\" END EXAMPLES"#) else { return [] }
        var examples: [Example] = []
        var i = begin
        while i < end {
            defer { i += 1 }
            guard lines[i] == ".EX", i + 1 < end, lines[i + 1].hasPrefix("$ "), !lines[i - 1].hasPrefix(#".\" interactive"#) else { continue }
            var command = [String(unescape(lines[i + 1]).dropFirst(2))]
            var j = i + 2
            while let last = command.last, last.hasSuffix("\\") || last.hasSuffix("|"), j < end {
                command.append(unescape(lines[j]))
                j += 1
            }
            let outputStart = j
            while j < end, lines[j] != ".EE" { j += 1 }
            let output = lines[outputStart..<j].map(unescape).map { $0 + "\n" }.joined()
            examples.append(Example(command: command.joined(separator: "\n"), output: output, outputLines: outputStart..<j))
            i = j
        }
        return examples
    }

    static func unescape(_ line: String) -> String {
        var text = line.hasPrefix("\\&") ? String(line.dropFirst(2)) : line
        for (roff, plain) in [("\\-", "-"), ("\\(aq", "'"), ("\\(dq", "\""), ("\\&", ""), ("\\e", "\\")] {
            text = text.replacingOccurrences(of: roff, with: plain)
        }
        // \[uXXXX]: the character with that code point.
        while let start = text.range(of: "\\[u"), let close = text[start.upperBound...].firstIndex(of: "]"),
            let value = UInt32(text[start.upperBound..<close], radix: 16), let scalar = Unicode.Scalar(value)
        {
            text.replaceSubrange(start.lowerBound...close, with: String(Character(scalar)))
        }
        return text
    }

    static func escape(_ line: String) -> String {
        var text = ""
        for scalar in line.unicodeScalars {
            switch scalar {
            case "\\": text += "\\e"
            case "-": text += "\\-"
            case "'": text += "\\(aq"
            case _ where scalar.value > 0x7e: text += "\\[u" + String(scalar.value, radix: 16, uppercase: true).leftPadded(4) + "]"
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text.hasPrefix(".") ? "\\&" + text : text
    }

    /// Runs a command with `sh` in `directory` (the package root unless given), with a home
    /// of its own unless given; what it prints on standard output and error, together.
    static func run(_ command: String, in directory: URL = GraphStoreBinary.packageRoot, home: String? = nil) throws -> String {
        let ownHome = home == nil ? try Scratch() : nil
        defer { withExtendedLifetime(ownHome) {} }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = directory
        let binaries = (GraphStoreBinary.path as NSString).deletingLastPathComponent
        process.environment = ["PATH": binaries + ":/usr/bin:/bin", "HOME": home ?? ownHome?.path ?? "/nonexistent", "NO_COLOR": "1", "LANG": "C.UTF-8"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func examplesAreRealTranscripts() throws {
        var lines = try String(contentsOfFile: Self.manual, encoding: .utf8).components(separatedBy: "\n")
        let examples = Self.examples(in: lines)
        #expect(examples.count >= 5)
        var recorded = false
        // From the last, so that rewriting one does not move the others.
        for example in examples.reversed() {
            let actual = try Self.run(example.command)
            if ProcessInfo.processInfo.environment["GRAPHSTORE_RECORD_GOLDEN"] == "1" {
                let body = actual.hasSuffix("\n") ? String(actual.dropLast()) : actual
                lines.replaceSubrange(example.outputLines, with: body.isEmpty ? [] : body.components(separatedBy: "\n").map(Self.escape))
                recorded = true
            } else {
                #expect(actual == example.output, "man/graphstore.1: \(example.command)")
            }
        }
        if recorded { try lines.joined(separator: "\n").write(toFile: Self.manual, atomically: true, encoding: .utf8) }
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
