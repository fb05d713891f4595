import Foundation
import TestScratch
import Testing

/// Where scripts come from, through the built binary: FIFOs, standard input, devices; what
/// is refused (a directory, input without line ends); and long continued statements.
@Suite struct ScriptInputTests {
    static let store = GraphStoreBinary.exampleStore

    /// `-f <(printf …)`: bash's process substitution hands over a pipe as /dev/fd/N.
    @Test func processSubstitutionIsAScript() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", #""$0" "$1" -f <(printf '.print one\n.print two\n') -c '.print three'"#, GraphStoreBinary.path, Self.store]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text == "one\ntwo\nthree\n")
    }

    @Test func standardInputIsAScriptByName() throws {
        for arguments in [["-c", ".read /dev/stdin"], ["-f", "/dev/stdin"]] {
            let result = try GraphStoreBinary.run([Self.store] + arguments, input: ".print from stdin\n.print and on\n")
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(result.stdout == "from stdin\nand on\n", "\(arguments)")
        }
    }

    /// A named FIFO is read once its writer comes, however late: opening it does not wait,
    /// and reading waits for the writer rather than taking its absence for the end.
    @Test func aNamedFIFOIsReadWhenItsWriterComes() throws {
        let fifo = try ScratchDirectory.make("script-input").path + "/script.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let running = try RunningBinary([Self.store, "-f", fifo])
        let writer = openWritingEnd(of: fifo)
        #expect(writer >= 0)
        let script = Array(".print late\n".utf8)
        #expect(write(writer, script, script.count) == script.count)
        close(writer)
        let output = try #require(running.output)
        #expect(String(decoding: output.readDataToEndOfFile(), as: UTF8.self) == "late\n")
        let ending = try running.finish()
        #expect(ending.status == 0, "\(ending.stderr)")
    }

    @Test func aDirectoryIsNoScript() throws {
        let directory = try ScratchDirectory.make("script-input").path
        let read = try GraphStoreBinary.run([Self.store, "-c", ".read \(directory)"])
        #expect(read.status == 1)
        #expect(read.stderr == "-c:1: cannot read \(directory): it is a directory\n")
        for arguments in [["-f", directory], ["--init", directory, "-c", ".print never"]] {
            let result = try GraphStoreBinary.run([Self.store] + arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr == "graphstore: cannot read \(directory): it is a directory\n", "\(arguments)")
            #expect(result.stdout.isEmpty)
        }
    }

    /// `/dev/zero` has no line ends: reading it fails at the line limit, at once, and takes
    /// no more memory than that limit's worth.
    @Test func inputWithoutLineEndsFailsAtTheLimitInBoundedMemory() throws {
        for arguments in [["-c", ".read /dev/zero"], ["-f", "/dev/zero"]] {
            let result = try GraphStoreBinary.run([Self.store] + arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr.hasSuffix("/dev/zero:1: line longer than 4 MiB, the most a line may hold\n"), "\(arguments): \(result.stderr)")
        }
        let baseline = try GraphStoreBinary.peakMemory([Self.store, ".entities"])
        for arguments in [["-c", ".read /dev/zero"], ["-f", "/dev/zero"]] {
            let zeros = try GraphStoreBinary.peakMemory([Self.store] + arguments)
            #expect(zeros.status == 1)
            #expect(zeros.kilobytes - baseline.kilobytes < 40_000, "\(arguments): \(zeros.kilobytes) KB against \(baseline.kilobytes) KB")
        }
    }

    @Test func aStatementContinuedPastTheLimitFails() throws {
        let script = try ScratchDirectory.make("script-input").path + "/open.graphstore"
        let line = String(repeating: "x", count: 1000)
        try ([".print 'never closed"] + Array(repeating: line, count: 5000) + [".print after"]).joined(separator: "\n").write(toFile: script, atomically: true, encoding: .utf8)
        let result = try GraphStoreBinary.run([Self.store, "-f", script])
        #expect(result.status == 1)
        #expect(result.stderr == "\(script):1: statement continued past 4 MiB, the most a statement may hold\n")
        #expect(result.stdout.isEmpty)
    }

    /// An unterminated quote continues the statement: 20,000 lines of it are one statement.
    @Test func aStatementContinuedOverTwentyThousandLinesCompletes() throws {
        let lines = [".print 'first"] + (1...20_000).map { "line \($0)" } + ["last'", ".print done"]
        let result = try GraphStoreBinary.run([Self.store], input: lines.joined(separator: "\n") + "\n")
        #expect(result.status == 0, "\(result.stderr)")
        let printed = result.stdout.split(separator: "\n")
        #expect(printed.count == 20_003)
        #expect(printed.first == "first" && printed[20_000] == "line 20000" && printed.last == "done")
    }
}
