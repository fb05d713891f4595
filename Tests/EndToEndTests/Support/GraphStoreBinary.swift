import Foundation
import TestScratch

/// Runs the built `graphstore` executable and captures what it prints.
enum GraphStoreBinary {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The package root (this file is Tests/EndToEndTests/Support/GraphStoreBinary.swift).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The executable: `GRAPHSTORE_BINARY`, else the one built beside the test bundle
    /// (whatever the build directory and configuration), else the debug build.
    static var path: String {
        if let override = ProcessInfo.processInfo.environment["GRAPHSTORE_BINARY"] { return override }
        if let beside = Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent("graphstore").path,
            FileManager.default.isExecutableFile(atPath: beside)
        {
            return beside
        }
        return packageRoot.appendingPathComponent(".build/debug/graphstore").path
    }

    /// `graphstore-codegen`, the codegen plugin's tool, built beside `graphstore`.
    static var codegenPath: String {
        URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("graphstore-codegen").path
    }

    /// The bundled example store.
    static var exampleStore: String { packageRoot.appendingPathComponent("examples/BookStore/BookStore.sqlite").path }

    /// Runs `graphstore` (or another of the package's executables) with arguments and
    /// optional standard input; `through` is a program and its arguments that run it
    /// (`setpriv --reuid=65534 --`), if any.
    static func run(
        _ arguments: [String], input: String? = nil, environment: [String: String] = [:], through launcher: [String] = [],
        executable: String? = nil
    ) throws -> Result {
        let path = executable ?? Self.path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: launcher.first ?? path)
        process.arguments = launcher.isEmpty ? arguments : launcher.dropFirst() + [path] + arguments
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = FileManager.default.temporaryDirectory.path
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let stdout = Pipe()
        let stderr = Pipe()
        let stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }

    /// A copy of a file in a fresh temporary directory.
    static func copy(_ path: String) throws -> String {
        let directory = try ScratchDirectory.make("graphstore-e2e")
        let target = directory.appendingPathComponent((path as NSString).lastPathComponent).path
        try FileManager.default.copyItem(atPath: path, toPath: target)
        return target
    }
}
