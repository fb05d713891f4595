import Foundation
import TestScratch

/// Compiles Swift files against the built GraphStore module, in Swift 6 mode with warnings
/// as errors, as far as SIL (where strict concurrency's data-race checks run), writing
/// nothing: for generated code and for what the compiler must refuse.
enum SwiftCompiler {
    static func check(_ sources: [String]) throws -> (status: Int32, output: String) {
        let modules = URL(fileURLWithPath: GraphStoreBinary.path).deletingLastPathComponent().appendingPathComponent("Modules").path
        let root = GraphStoreBinary.packageRoot.path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "-emit-sil", "-wmo", "-module-name", "App", "-o", "/dev/null", "-swift-version", "6", "-warnings-as-errors", "-I", modules,
            "-Xcc", "-fmodule-map-file=\(root)/Sources/CSQLite/module.modulemap", "-Xcc", "-fmodule-map-file=\(root)/Sources/CZlib/module.modulemap"] + sources
        // swiftc writes its dependency and diagnostic files beside the working directory.
        process.currentDirectoryURL = try ScratchDirectory.make("swiftc")
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    /// The Swift files of a folder, checked together.
    static func checkFolder(_ folder: String) throws -> (status: Int32, output: String) {
        try check(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".swift") }.map { folder + "/" + $0 })
    }
}
