import Foundation
import TestScratch

/// The built GraphStore module's public API, read from its symbol graph
/// (`swift-symbolgraph-extract`, which leaves out unavailable declarations: the porting
/// names of `Sources/GraphStore/Porting` are not counterparts), and from GraphStoreModel's,
/// which GraphStore re-exports (the extractor does not follow `@_exported import`).
struct PublicSymbols {
    /// A symbol's path: its enclosing types' names, then its own name with its argument
    /// labels (`["FetchRequest", "init(predicate:sortBy:)"]`).
    var paths: Set<[String]> = []
    /// The names of the types (structs, classes, enums, protocols, type aliases), nested
    /// ones both alone and with their enclosing types' (`Element`, `FetchIndex.Element`).
    var typeNames: Set<String> = []

    /// The names of the symbols directly inside `parent` (a type's name), or of every symbol.
    func names(in parent: String?) -> [String] {
        paths.compactMap { path in
            guard let parent else { return path.last }
            return path.count >= 2 && path[path.count - 2] == parent ? path.last : nil
        }
    }

    /// Whether `name` is a type.
    func isType(_ name: String) -> Bool { typeNames.contains(name) }

    /// The library's symbols, extracted once for every test that asks (a few seconds each time).
    static let library = Result { try extract() }

    static func extract() throws -> (symbols: PublicSymbols, output: String) {
        let modules = URL(fileURLWithPath: GraphStoreBinary.path).deletingLastPathComponent().appendingPathComponent("Modules").path
        let root = GraphStoreBinary.packageRoot.path
        let directory = try ScratchDirectory.make("graphstore-symbols")
        #if arch(arm64)
        let target = "aarch64-unknown-linux-gnu"
        #else
        let target = "x86_64-unknown-linux-gnu"
        #endif
        var output = ""
        for module in ["GraphStore", "GraphStoreModel"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["swift-symbolgraph-extract", "-module-name", module, "-target", target, "-I", modules,
                "-minimum-access-level", "public", "-output-dir", directory.path,
                "-Xcc", "-fmodule-map-file=\(root)/Sources/CSQLite/module.modulemap", "-Xcc", "-fmodule-map-file=\(root)/Sources/CZlib/module.modulemap"]
            let pipe = Pipe()
            process.standardError = pipe
            process.standardOutput = pipe
            try process.run()
            output += String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
        }
        var symbols = PublicSymbols()
        let typeKinds: Set<String> = ["swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias"]
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) where file.hasSuffix(".symbols.json") {
            let graph = try JSONDecoder().decode(SymbolGraph.self, from: Data(contentsOf: directory.appendingPathComponent(file)))
            for symbol in graph.symbols {
                symbols.paths.insert(symbol.pathComponents)
                if typeKinds.contains(symbol.kind.identifier), let name = symbol.pathComponents.last {
                    symbols.typeNames.insert(name)
                    symbols.typeNames.insert(symbol.pathComponents.joined(separator: "."))
                }
            }
        }
        return (symbols, output)
    }

    /// The parts of a symbol graph file read here.
    private struct SymbolGraph: Decodable {
        struct Symbol: Decodable {
            struct Kind: Decodable { var identifier: String }
            var kind: Kind
            var pathComponents: [String]
        }
        var symbols: [Symbol]
    }
}
