import Foundation

/// The Swift blocks of documentation pages as one program: each block the body of a
/// function (`@MainActor`, `async throws`) whose parameters are the values a fragment's
/// `// given: name: Type, …` line names; `main` runs the examples named on its command
/// line, printing a separator (`\u{1e}`) before each, so that what each prints can be told
/// apart. A block's `import` lines go to the top of the file, and `#sourceLocation` makes
/// the compiler's messages name the page and its line.
struct SwiftExamples {
    struct Example {
        /// Its number in the program (`example3`).
        var number: Int
        /// The index of its page in the pages the program was made from.
        var page: Int
        var block: DocumentPage.Block
        /// What it prints when run: the ```` ```output ```` block after it, if any.
        var output: DocumentPage.Block?
        var givens: [String]
    }

    var examples: [Example] = []
    /// The pages' names, by index.
    var pages: [String] = []

    init(_ documents: [DocumentPage]) {
        pages = documents.map(\.name)
        for (page, document) in documents.enumerated() {
            for (index, block) in document.blocks.enumerated() where block.kind == .swift && block.notRun == nil {
                let next = index + 1 < document.blocks.count ? document.blocks[index + 1] : nil
                examples.append(Example(number: examples.count, page: page, block: block, output: next?.kind == .output ? next : nil, givens: Self.givens(of: block)))
            }
        }
    }

    /// The numbers of the examples that run: those that say what they print, whose values
    /// the program can make.
    var runnable: [Int] {
        examples.filter { example in
            example.output != nil && example.givens.allSatisfy { Self.argument(for: $0, example: example.number) != nil }
        }.map(\.number)
    }

    /// The values a fragment's first line names (`// given: context: ManagedObjectContext`).
    static func givens(of block: DocumentPage.Block) -> [String] {
        guard let first = block.body.first, let match = first.wholeMatch(of: /\/\/ given: (.+)/) else { return [] }
        return match.1.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// How the program makes a value a fragment names, to run it: a context on a copy of the
    /// bundled BookStore store opened for writing with its model, the bundled store itself
    /// read-only, or a path for a new store.
    static func argument(for given: String, example: Int) -> String? {
        switch given {
        case "context: ManagedObjectContext":
            #"ManagedObjectContext(store: try PersistentStore(path: try bundledStoreCopy("example-\#(example)"), model: try ModelFile(path: "examples/BookStore/BookStore.xcdatamodeld").model, readOnly: false))"#
        case "store: PersistentStore":
            #"try PersistentStore(path: "examples/BookStore/BookStore.sqlite")"#
        case "path: String":
            #""example-\#(example).sqlite""#
        default:
            nil
        }
    }

    /// The program's source.
    var source: String {
        var imports: Set<String> = ["import Foundation", "import GraphStore"]
        var functions: [String] = []
        var calls: [String] = []
        for example in examples {
            let number = example.number
            let skipped = example.givens.isEmpty ? 0 : 1
            let body = example.block.body.dropFirst(skipped)
            for line in body where line.hasPrefix("import ") { imports.insert(line) }
            // Import lines left blank, so that the compiler's line numbers are the page's.
            let code = body.map { $0.hasPrefix("import ") ? "" : "    " + $0 }.joined(separator: "\n")
            functions.append("""
                @MainActor func example\(number)(\(example.givens.joined(separator: ", "))) async throws {
                #sourceLocation(file: "\(pages[example.page])", line: \(example.block.start + skipped + 1))
                \(code)
                #sourceLocation()
                }
                """)
            guard runnable.contains(number) else { continue }
            let arguments = example.givens.map { given in "\(given.prefix { $0 != ":" }): \(Self.argument(for: given, example: number) ?? "")" }
            calls.append("            case \"\(number)\": try await example\(number)(\(arguments.joined(separator: ", ")))")
        }
        return imports.sorted().joined(separator: "\n") + "\n\n" + """
            /// A copy of the bundled store, for an example that changes it.
            func bundledStoreCopy(_ name: String) throws -> String {
                let path = name + ".sqlite"
                try? FileManager.default.removeItem(atPath: path)
                try FileManager.default.copyItem(atPath: "examples/BookStore/BookStore.sqlite", toPath: path)
                return path
            }

            """ + functions.joined(separator: "\n\n") + """


            @main struct DocumentExamples {
                @MainActor static func main() async {
                    for argument in CommandLine.arguments.dropFirst() {
                        print("\\u{1e}")
                        do {
                            switch argument {
            \(calls.joined(separator: "\n"))
                            default: print("no example \\(argument)")
                            }
                        } catch {
                            print("error: \\(error)")
                        }
                    }
                }
            }

            """
    }

    /// Compiles the program, with the BookStore example's generated classes, in the workspace.
    func build(in workspace: Workspace) throws -> (status: Int32, output: String, executable: String) {
        let file = workspace.scratch.appendingPathComponent("DocumentExamples.swift").path
        try source.write(toFile: file, atomically: true, encoding: .utf8)
        let generated = GraphStoreBinary.packageRoot.appendingPathComponent("examples/BookStore/Sources/Model").path
        let classes = try FileManager.default.contentsOfDirectory(atPath: generated).filter { $0.hasSuffix(".swift") }.sorted().map { generated + "/" + $0 }
        let executable = workspace.scratch.appendingPathComponent("document-examples").path
        let (status, output) = try SwiftCompiler.buildProgram([file] + classes, output: executable)
        return (status, output, executable)
    }
}
