import Foundation
import Testing
import TestScratch

/// `graphstore codegen`: the example's checked-in classes are what it writes today, and
/// what it writes for corpus models compiles under Swift 6 with no warning.
@Suite struct CodegenTests {
    static let exampleModel = GraphStoreBinary.packageRoot.appendingPathComponent("examples/BookStore/BookStore.xcdatamodeld").path
    static let checkedIn = GraphStoreBinary.packageRoot.appendingPathComponent("examples/BookStore/Sources/Model").path

    func generate(_ model: String, all: Bool = false) throws -> (String, GraphStoreBinary.Result) {
        let output = try ScratchDirectory.make("graphstore-codegen").path
        let result = try GraphStoreBinary.run(["codegen", "--model", model, "--output", output] + (all ? ["--all"] : []))
        return (output, result)
    }

    func files(in directory: String) throws -> [String: String] {
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            files[name] = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
        }
        return files
    }

    @Test func theExamplesGeneratedClassesMatchTheModel() throws {
        let (output, result) = try generate(Self.exampleModel)
        #expect(result.status == 0, "\(result.stderr)")
        let generated = try files(in: output)
        #expect(generated.keys.sorted() == ["Book.swift", "BookCategory.swift", "Page.swift"])
        #expect(generated == (try files(in: Self.checkedIn)), "regenerate: graphstore codegen --model examples/BookStore/BookStore.xcdatamodeld --output examples/BookStore/Sources/Model")
        #expect(generated["Book.swift"]?.contains("public var price: Float {\n        get { attributeProperty(\"price\") }") == true)   // usesScalarValueType
        #expect(generated["Book.swift"]?.contains("public var pages: [Page] {") == true)   // ordered
        #expect(generated["BookCategory.swift"]?.contains("public var books: Set<Book> {") == true)
    }

    /// The example's generated classes read the store Core Data itself wrote for the book
    /// (the corpus's seed.sqlite), without changing a byte of it.
    @Test func theGeneratedClassesReadACorpusStore() throws {
        let corpus = GraphStoreBinary.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        guard FileManager.default.fileExists(atPath: corpus.path) else {
            if ProcessInfo.processInfo.environment["GRAPHSTORE_REQUIRE_CORPUS"] == "1" { Issue.record("../shared/corpus is required but missing") }
            print("skipped theGeneratedClassesReadACorpusStore: ../shared/corpus is not present")
            return
        }
        let seed = corpus.appendingPathComponent("stores/Apress__pro-ios-persistence/Ch04/BookStore/BookStore/seed.sqlite").path
        let before = BrokenStores.bytes(of: seed)
        let (output, status) = try ExampleTests.run(try ExampleTests.product("bookstore-example"), ["--list", seed])
        #expect(status == 0)
        #expect(output == """
            The first book (Fiction): 10.0, 0 pages
            The fourth book (Biography): 12.0, 0 pages
            The second book (Fiction): 15.0, 0 pages
            The third book (Biography): 10.0, 0 pages

            """)
        #expect(BrokenStores.bytes(of: seed) == before)
    }

    /// The SurfJournal port's class (Tests/GraphStoreTests/Support/SurfJournal) is what
    /// codegen writes today for the app's own model in the corpus.
    @Test func theSurfJournalPortsClassIsWhatCodegenWrites() throws {
        let corpus = GraphStoreBinary.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        guard FileManager.default.fileExists(atPath: corpus.path) else {
            if ProcessInfo.processInfo.environment["GRAPHSTORE_REQUIRE_CORPUS"] == "1" { Issue.record("../shared/corpus is required but missing") }
            print("skipped theSurfJournalPortsClassIsWhatCodegenWrites: ../shared/corpus is not present")
            return
        }
        let model = corpus.appendingPathComponent(
            "models/kodecocodes__cdt-materials/09-multiple-managed-object-contexts/projects/challenge/SurfJournal/SurfJournal/SurfJournalModel.xcdatamodeld").path
        let (output, result) = try generate(model, all: true)
        #expect(result.status == 0, "\(result.stderr)")
        let checkedIn = GraphStoreBinary.packageRoot.appendingPathComponent("Tests/GraphStoreTests/Support/SurfJournal/JournalEntry.swift").path
        #expect(try files(in: output)["JournalEntry.swift"] == String(contentsOfFile: checkedIn, encoding: .utf8),
                "regenerate: graphstore codegen --all --model …/SurfJournalModel.xcdatamodeld --output Tests/GraphStoreTests/Support/SurfJournal")
    }

    @Test func usageErrorsExitWithTwo() throws {
        #expect(try GraphStoreBinary.run(["codegen", "--output", "/tmp"]).status == 2)
        #expect(try GraphStoreBinary.run(["codegen", "--model"]).status == 2)
        #expect(try GraphStoreBinary.run(["codegen", "--model", "x", "--output", "y", "--bogus"]).status == 2)
        let missing = try GraphStoreBinary.run(["codegen", "--model", "/nonexistent.xcdatamodeld", "--output", try ScratchDirectory.make("graphstore-codegen").path])
        #expect(missing.status == 1 && missing.stderr.contains("nonexistent"))
    }

    /// The plugin's tool, `graphstore-codegen`, writes what `graphstore codegen` writes:
    /// the example's checked-in classes, as the one file the plugin asks for (in name order,
    /// a blank line between them), byte for byte.
    @Test func thePluginsToolWritesWhatGraphstoreCodegenWrites() throws {
        let directory = try ScratchDirectory.make("graphstore-codegen")
        let fromShell = directory.appendingPathComponent("shell.swift").path
        let fromTool = directory.appendingPathComponent("tool.swift").path
        let shell = try GraphStoreBinary.run(["codegen", "--model", Self.exampleModel, "--output-file", fromShell])
        let tool = try GraphStoreBinary.run(["--model", Self.exampleModel, "--output-file", fromTool], executable: GraphStoreBinary.codegenPath)
        #expect(shell.status == 0, "\(shell.stderr)")
        #expect(tool.status == 0, "\(tool.stderr)")
        let checkedIn = try files(in: Self.checkedIn).sorted { $0.key < $1.key }.map(\.value).joined(separator: "\n")
        #expect(FileManager.default.contents(atPath: fromTool) == Data(checkedIn.utf8))
        #expect(FileManager.default.contents(atPath: fromTool) == FileManager.default.contents(atPath: fromShell))
    }

    /// `graphstore-codegen` parses the same command line, and names itself in its messages.
    @Test func thePluginsToolHasTheSameCommandLine() throws {
        let tool = GraphStoreBinary.codegenPath
        let usage = try GraphStoreBinary.run(["--model", "x", "--output", "y", "--bogus"], executable: tool)
        #expect(usage.status == 2 && usage.stderr.contains("usage: graphstore-codegen --model"), "\(usage.stderr)")
        #expect(try GraphStoreBinary.run(["--output", "/tmp"], executable: tool).status == 2)
        let missing = try GraphStoreBinary.run(
            ["--model", "/nonexistent.xcdatamodeld", "--output", try ScratchDirectory.make("graphstore-codegen").path], executable: tool)
        #expect(missing.status == 1 && missing.stderr.hasPrefix("graphstore-codegen: ") && missing.stderr.contains("nonexistent"), "\(missing.stderr)")
        let help = try GraphStoreBinary.run(["--help"], executable: tool)
        #expect(help.status == 0 && help.stdout.hasPrefix("usage: graphstore-codegen --model MODEL.xcdatamodeld (--output DIR | --output-file FILE) [--all]\n"))
    }

    /// Corpus models of several shapes (inheritance, to-many, ordered, every attribute type),
    /// each generated with --all and compiled with swiftc in Swift 6 mode, warnings as errors.
    @Test func generatedCodeCompilesWithoutWarnings() throws {
        let corpus = GraphStoreBinary.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        guard FileManager.default.fileExists(atPath: corpus.path) else {
            if ProcessInfo.processInfo.environment["GRAPHSTORE_REQUIRE_CORPUS"] == "1" { Issue.record("../shared/corpus is required but missing") }
            print("skipped generatedCodeCompilesWithoutWarnings: ../shared/corpus is not present")
            return
        }
        let models = [
            "models/Apress__pro-ios-persistence/Ch04/BookStoreSwift/BookStoreSwift/BookStoreSwift.xcdatamodeld",
            "models/ChristianKienle__Core-Data-Editor/iOS Example/iOS Example/iOS_Example.xcdatamodel",
            "models/wireapp__wire-ios-data-model/Resources/zmessaging.xcdatamodeld/zmessaging2.46.0.xcdatamodel",
            "models/Mioke__CoreDataMigrationHelper/CoreDataTest/CoreDataTest.xcdatamodeld",
            "models/kodecocodes__cdt-materials/02-nsmanagedobject-subclasses/projects/final/BowTies/BowTies/BowTies.xcdatamodeld",
        ]
        for model in models {
            let (output, result) = try generate(corpus.appendingPathComponent(model).path, all: true)
            #expect(result.status == 0, "\(model): \(result.stderr)")
            let (status, text) = try SwiftCompiler.checkFolder(output)
            #expect(status == 0, "\(model):\n\(text)")
        }
    }

    /// A "Category/Extension" entity: the properties go into an extension of the app's class.
    @Test func aCategoryEntityExtendsTheAppsClass() throws {
        let directory = try ScratchDirectory.make("graphstore-codegen")
        let model = directory.appendingPathComponent("App.xcdatamodel")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Note" representedClassName=".Note" codeGenerationType="category">
                    <attribute name="text" optional="YES" attributeType="String"/>
                    <attribute name="stars" attributeType="Integer 16" usesScalarValueType="YES"/>
                    <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
                </entity>
                <entity name="Folder" representedClassName="Folder" codeGenerationType="class">
                    <attribute name="created" attributeType="Date"/>
                    <relationship name="notes" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>
                </entity>
                <entity name="Loose" representedClassName="Loose">
                    <attribute name="name" optional="YES" attributeType="String"/>
                </entity>
            </model>
            """.write(to: model.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let (output, result) = try generate(model.path)
        #expect(result.status == 0, "\(result.stderr)")
        let generated = try files(in: output)
        #expect(generated.keys.sorted() == ["Folder.swift", "Note+Properties.swift"])
        #expect(generated["Note+Properties.swift"]?.contains("extension Note: EntityObject {") == true)
        #expect(generated["Note+Properties.swift"]?.contains("public var stars: Int16 {") == true)
        #expect(generated["Folder.swift"]?.contains("public var created: Date {") == true)
        try "import GraphStore\npublic final class Note: ManagedObject {}\n".write(toFile: output + "/Note.swift", atomically: true, encoding: .utf8)
        let (status, text) = try SwiftCompiler.checkFolder(output)
        #expect(status == 0, "\(text)")
    }
}
