import Foundation
import TestScratch

/// Compiles Swift files against the built GraphStore module, in Swift 6 mode with warnings
/// as errors, as far as SIL (where strict concurrency's data-race checks run), writing
/// nothing: for generated code and for what the compiler must refuse; or into a program
/// linked with the library, for the documentation's examples.
enum SwiftCompiler {
    static func check(_ sources: [String]) throws -> (status: Int32, output: String) {
        try swiftc(["-emit-sil", "-wmo", "-module-name", "App", "-o", "/dev/null"] + sources)
    }

    /// Compiles Swift files that use GraphStore into an executable (`@main` in one of them),
    /// linked with the library's objects as SwiftPM built them: those of the BookStore
    /// example's link, but the example's own.
    static func buildProgram(_ sources: [String], output: String) throws -> (status: Int32, output: String) {
        let binaries = URL(fileURLWithPath: GraphStoreBinary.path).deletingLastPathComponent()
        let example = try String(contentsOf: binaries.appendingPathComponent("bookstore-example.product/Objects.LinkFileList"), encoding: .utf8)
        let objects = example.split(separator: "\n").filter { !$0.contains("/bookstore_example.build/") }.joined(separator: "\n")
        let list = try ScratchDirectory.make("swiftc-objects").appendingPathComponent("objects.list")
        try objects.write(to: list, atomically: true, encoding: .utf8)
        // The system libraries the example links (Package.swift's CSQLite and CZlib, and ICU for MATCHES).
        return try swiftc(["-emit-executable", "-parse-as-library", "-module-name", "DocumentExamples", "-o", output] + sources
            + ["@" + list.path, "-lz", "-lsqlite3", "-l_FoundationICU"])
    }

    /// swiftc in Swift 6 mode with warnings as errors, with the built modules.
    private static func swiftc(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let modules = URL(fileURLWithPath: GraphStoreBinary.path).deletingLastPathComponent().appendingPathComponent("Modules").path
        let root = GraphStoreBinary.packageRoot.path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "-swift-version", "6", "-warnings-as-errors", "-I", modules,
            "-Xcc", "-fmodule-map-file=\(root)/Sources/CSQLite/module.modulemap", "-Xcc", "-fmodule-map-file=\(root)/Sources/CZlib/module.modulemap"] + arguments
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
