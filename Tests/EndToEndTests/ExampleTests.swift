import Foundation
import Testing
import TestScratch

/// The examples, run as a user runs them: each example program makes its store, then the
/// `graphstore` binary runs each REPL script on a copy of it. Output (standard output and
/// error, in order) and exit status must match the golden files in `examples/*/expected/`.
///
/// `GRAPHSTORE_UPDATE_GOLDEN=1 swift test --filter ExampleTests` rewrites the golden files.
@Suite(.serialized) struct ExampleTests {
    /// One REPL script of an example: the program arguments that make its store, and the
    /// model it is opened with.
    struct Script: CustomTestStringConvertible, Sendable {
        var example: String
        var name: String
        /// The example program's arguments; nil runs on a copy of the bundled store instead.
        var programArguments: [String]?
        var model: String?
        var write = true
        var testDescription: String { "\(example)/\(name)" }
    }

    static let programs: [(example: String, product: String, arguments: [String], golden: String)] = [
        ("BookStore", "bookstore-example", [], "program"),
        ("GroceryDude", "groceries-example", ["Deny"], "program-deny"),
        ("GroceryDude", "groceries-example", ["Cascade"], "program-cascade"),
        ("GroceryDude", "groceries-example", ["Nullify"], "program-nullify"),
        ("Users", "users-example", [], "program"),
        ("PluginExample", "plugin-example", [], "program"),
        ("Songbook", "songbook-example", [], "program"),
    ]

    static let scripts: [Script] = [
        Script(example: "BookStore", name: "inspect", programArguments: [], model: nil, write: false),
        Script(example: "BookStore", name: "bundled", programArguments: nil, model: "BookStore.xcdatamodeld", write: false),
        Script(example: "BookStore", name: "validation", programArguments: [], model: "BookStore.xcdatamodeld"),
        Script(example: "BookStore", name: "validation-fixed", programArguments: [], model: "BookStore.xcdatamodeld"),
        Script(example: "BookStore", name: "undo", programArguments: nil, model: nil),
        Script(example: "GroceryDude", name: "deny", programArguments: ["Deny"], model: "GroceryDude.xcdatamodeld/Deny.xcdatamodel"),
        Script(example: "GroceryDude", name: "deny-fixed", programArguments: ["Deny"], model: "GroceryDude.xcdatamodeld/Deny.xcdatamodel"),
        Script(example: "GroceryDude", name: "cascade", programArguments: ["Cascade"], model: "GroceryDude.xcdatamodeld/Cascade.xcdatamodel"),
        Script(example: "GroceryDude", name: "nullify", programArguments: ["Nullify"], model: "GroceryDude.xcdatamodeld/Nullify.xcdatamodel"),
        Script(example: "GroceryDude", name: "locations", programArguments: ["Nullify"], model: "GroceryDude.xcdatamodeld"),
        Script(example: "Users", name: "users", programArguments: [], model: "Users.xcdatamodeld"),
        Script(example: "Users", name: "users-duplicate", programArguments: [], model: "Users.xcdatamodeld"),
        Script(example: "Users", name: "users-fixed", programArguments: [], model: "Users.xcdatamodeld"),
        Script(example: "Songbook", name: "plan", programArguments: ["--seed"], model: nil, write: false),
        Script(example: "Songbook", name: "songbook", programArguments: [], model: "Songbook.xcdatamodeld", write: false),
    ]

    static let examples = GraphStoreBinary.packageRoot.appendingPathComponent("examples")

    /// An example program, built beside `graphstore` (see ``GraphStoreBinary/path``).
    static func product(_ name: String) throws -> URL {
        let url = URL(fileURLWithPath: GraphStoreBinary.path).deletingLastPathComponent().appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw Missing(description: "\(url.path) is not built; build the package (swift build --build-tests) first")
        }
        return url
    }

    struct Missing: Error, CustomStringConvertible { var description: String }

    /// Runs a program; returns its output (both streams, in order) and exit status.
    static func run(_ executable: URL, _ arguments: [String], input: URL? = nil) throws -> (String, Int32) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        if let input { process.standardInput = try FileHandle(forReadingFrom: input) }
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: data, as: UTF8.self), process.terminationStatus)
    }

    /// Makes an example's store in a fresh directory.
    static func makeStore(_ example: String, product: String, arguments: [String]) throws -> (String, String, Int32) {
        let directory = try ScratchDirectory.make("graphstore-example")
        let store = directory.appendingPathComponent("\(example).sqlite").path
        let (output, status) = try run(try self.product(product), [store] + arguments)
        return (store, output.replacingOccurrences(of: directory.path, with: "$TMP"), status)
    }

    /// Compares with (or, when asked, rewrites) a golden file. Timings are masked, and so
    /// is where the package is (a plan names its model bundle by its whole path).
    static func check(_ output: String, status: Int32, against golden: URL) throws {
        let masked = output.replacingOccurrences(of: #"\(\d+\.\d+ s\)"#, with: "(… s)", options: .regularExpression)
            .replacingOccurrences(of: GraphStoreBinary.packageRoot.path, with: "$PACKAGE") + "exit \(status)\n"
        if ProcessInfo.processInfo.environment["GRAPHSTORE_UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: golden.deletingLastPathComponent(), withIntermediateDirectories: true)
            try masked.write(to: golden, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        #expect(masked == expected, "\(golden.path) differs")
    }

    /// Each script starts with a comment saying which store and model it needs and the
    /// exact command that runs it — the one this suite runs it with.
    @Test(arguments: scripts) func scriptSaysHowToRunIt(_ script: Script) throws {
        let file = "examples/\(script.example)/\(script.name).graphstore"
        let text = try String(contentsOf: Self.examples.appendingPathComponent("\(script.example)/\(script.name).graphstore"), encoding: .utf8)
        let header = text.split(separator: "\n").prefix { $0.hasPrefix("--") }.map { String($0.dropFirst(2)).trimmingCharacters(in: .whitespaces) }
        #expect(header.contains { $0.hasPrefix("Store: ") && $0.contains("model: ") }, "\(file)")
        let run = try #require(header.first { $0.hasPrefix("graphstore ") && $0.hasSuffix("< " + file) }, "\(file) has no command that runs it")
        #expect(run.contains(" --write ") == script.write, "\(run)")
        if let model = script.model { #expect(run.contains("--model examples/\(script.example)/\(model) "), "\(run)") } else { #expect(!run.contains("--model"), "\(run)") }
        // A store made by an example program: the program, with the arguments it is run with.
        if let arguments = script.programArguments, let product = Self.programs.first(where: { $0.example == script.example })?.product {
            let making = header.first { $0.contains("swift run \(product) ") } ?? ""
            #expect(!making.isEmpty && arguments.allSatisfy { making.contains(" \($0)") }, "\(file): the store's program")
        }
    }

    /// Every script of the examples is run by this suite (and so says how to run it).
    @Test func everyScriptIsRun() throws {
        for example in ["BookStore", "GroceryDude", "Users", "Songbook"] {
            let files = try FileManager.default.contentsOfDirectory(atPath: Self.examples.appendingPathComponent(example).path).filter { $0.hasSuffix(".graphstore") }
            for file in files {
                #expect(Self.scripts.contains { $0.example == example && $0.name + ".graphstore" == file }, "\(example)/\(file)")
            }
        }
    }

    @Test(arguments: 0..<programs.count) func programMatchesItsGoldenOutput(_ index: Int) throws {
        let program = Self.programs[index]
        let (_, output, status) = try Self.makeStore(program.example, product: program.product, arguments: program.arguments)
        try Self.check(output, status: status, against: Self.examples.appendingPathComponent("\(program.example)/expected/\(program.golden).out"))
        #expect(status == 0)
    }

    @Test(arguments: scripts) func scriptMatchesItsGoldenOutput(_ script: Script) throws {
        let store: String
        if let programArguments = script.programArguments {
            let product = Self.programs.first { $0.example == script.example }?.product ?? ""
            let (made, _, status) = try Self.makeStore(script.example, product: product, arguments: programArguments)
            try #require(status == 0)
            store = made
        } else {
            store = try GraphStoreBinary.copy(GraphStoreBinary.exampleStore)
        }
        var arguments = script.write ? ["--write"] : []
        if let model = script.model { arguments += ["--model", Self.examples.appendingPathComponent("\(script.example)/\(model)").path] }
        let folder = Self.examples.appendingPathComponent(script.example)
        let (output, status) = try Self.run(URL(fileURLWithPath: GraphStoreBinary.path), arguments + [store], input: folder.appendingPathComponent("\(script.name).graphstore"))
        let directory = (store as NSString).deletingLastPathComponent
        try Self.check(output.replacingOccurrences(of: directory, with: "$TMP"), status: status, against: folder.appendingPathComponent("expected/\(script.name).out"))
    }
}
