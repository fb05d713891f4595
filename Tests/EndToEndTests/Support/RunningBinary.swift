import Foundation

/// The built `graphstore` started and left running, for tests that act while it runs: read
/// part of its output and close the pipe, or send it a signal. Standard input is empty;
/// standard error is read at the end.
final class RunningBinary {
    private let process = Process()
    private let errors = Pipe()
    /// The reading end of its standard output, when it writes to a pipe.
    let output: FileHandle?

    /// How it ended.
    struct Ending {
        /// The exit status, or the signal that ended it.
        var status: Int32
        var killedBySignal: Bool
        var stderr: String
    }

    /// Starts `graphstore` with `arguments`; its standard output goes to `standardOutput`,
    /// or to a pipe read through `output`.
    init(_ arguments: [String], standardOutput: FileHandle? = nil) throws {
        process.executableURL = URL(fileURLWithPath: GraphStoreBinary.path)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = FileManager.default.temporaryDirectory.path
        process.environment = environment
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        process.standardError = errors
        if let standardOutput {
            process.standardOutput = standardOutput
            output = nil
        } else {
            let pipe = Pipe()
            process.standardOutput = pipe
            output = pipe.fileHandleForReading
        }
        try process.run()
    }

    /// Its process ID.
    var pid: pid_t { process.processIdentifier }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Waits for the end; standard output's pipe, if any, is closed first.
    func finish() throws -> Ending {
        try output?.close()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Ending(
            status: process.terminationStatus, killedBySignal: process.terminationReason == .uncaughtSignal,
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}
