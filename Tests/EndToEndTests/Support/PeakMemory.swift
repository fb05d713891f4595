import Foundation

extension GraphStoreBinary {
    /// Runs `graphstore` with its output thrown away and returns its peak resident memory in
    /// kilobytes, and its exit status.
    ///
    /// It runs under the small `peak-memory` program (built with the tests): a child spawned
    /// straight from the test process would count the test process's own memory as its
    /// peak, since Linux takes the old address space's high-water mark at exec.
    static func peakMemory(_ arguments: [String]) throws -> (kilobytes: Int, status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: peakMemoryProgram)
        process.arguments = [path] + arguments
        process.environment = ["HOME": "/nonexistent", "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let fields = text.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard process.terminationStatus == 0, fields.count == 2, let kilobytes = Int(fields[0]), let status = Int32(fields[1]) else {
            throw TerminalError("peak-memory: \(text)")
        }
        return (kilobytes, status)
    }

    /// The `peak-memory` program built beside the test bundle (or in the debug build).
    private static var peakMemoryProgram: String {
        if let beside = Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent("peak-memory").path,
            FileManager.default.isExecutableFile(atPath: beside)
        {
            return beside
        }
        return packageRoot.appendingPathComponent(".build/debug/peak-memory").path
    }
}
