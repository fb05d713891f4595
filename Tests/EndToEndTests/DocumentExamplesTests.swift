import Foundation
import TestScratch
import Testing

/// The README and the pages of docs/ are real transcripts and real code, as the manual's
/// EXAMPLES are (`ManualExamplesTests`): each page's shell transcripts are run with the built
/// `graphstore` first on the PATH, from a copy of the package's examples (so that a `--write`
/// changes only the copy; `../shared` beside it is the corpus), and what they print must be
/// what the page shows; its sessions at a terminal are typed on a pseudo-terminal; its Swift
/// blocks are compiled, all of them at once, against the built library, and those with an
/// ```` ```output ```` block are run. `DocumentPage` says how a page marks each kind of block.
/// `GRAPHSTORE_RECORD_GOLDEN=1` writes the outputs back into the pages.
@Suite struct DocumentExamplesTests {
    /// A page, how many of its blocks it leaves unrun (each marked, with a reason), and how
    /// many examples it must run at least: so that a page cannot quietly opt out.
    struct Page: CustomTestStringConvertible, Sendable {
        var name: String
        var notRun: Int
        var minimumRun: Int
        var testDescription: String { name }
    }

    static let pages: [Page] = [
        Page(name: "README.md", notRun: 1, minimumRun: 5),
        Page(name: "docs/debugging.md", notRun: 1, minimumRun: 14),
        Page(name: "docs/scripts.md", notRun: 0, minimumRun: 10),
        Page(name: "docs/seed-verification.md", notRun: 1, minimumRun: 4),
        Page(name: "docs/library.md", notRun: 1, minimumRun: 15),
    ]

    static var recording: Bool { ProcessInfo.processInfo.environment["GRAPHSTORE_RECORD_GOLDEN"] == "1" }

    /// Every block is one the test runs, or says why it is not; the page leaves out no more
    /// than it declares, and runs at least as many examples as it declares.
    @Test(arguments: pages) func everyBlockRunsOrSaysWhyNot(_ page: Page) throws {
        let document = try DocumentPage(page.name)
        for block in document.blocks where block.kind == .other && block.notRun == nil {
            Issue.record("\(block.location(in: document)): a ```\(block.info) block is neither run nor marked <!-- not run: REASON -->")
        }
        let notRun = document.blocks.filter { $0.notRun != nil }
        #expect(notRun.count == page.notRun, "\(page.name) leaves \(notRun.count) blocks unrun: \(notRun.map { $0.location(in: document) })")
        let examples = document.runBlocks.reduce(0) { count, block in
            switch block.kind {
            case .shell: count + document.commands(of: block).count
            case .terminal, .swift: count + 1
            case .output, .other: count
            }
        }
        #expect(examples >= page.minimumRun, "\(page.name) runs \(examples) examples")
        for (index, block) in document.blocks.enumerated() where block.kind == .output {
            #expect(index > 0 && document.blocks[index - 1].kind == .swift, "\(block.location(in: document)): an output block follows no Swift block")
        }
    }

    // MARK: Shell transcripts and terminal sessions

    /// The page's transcripts and sessions, in order, in one working directory: a block may
    /// use the files an earlier one made, as a reader following the page would.
    @Test(arguments: pages) func transcriptsAreReal(_ page: Page) throws {
        var document = try DocumentPage(page.name)
        let workspace = try Workspace()
        var recorded: [(lines: Range<Int>, with: [String])] = []
        for block in document.runBlocks {
            guard block.kind == .shell || block.kind == .terminal, let missing = Workspace.missingRequirement(of: block) else {
                continue
            }
            if missing.isCorpus, ProcessInfo.processInfo.environment["GRAPHSTORE_REQUIRE_CORPUS"] == "1" {
                Issue.record("\(block.location(in: document)): ../shared/corpus is required (GRAPHSTORE_REQUIRE_CORPUS=1) but missing")
            }
            print("skipped transcriptsAreReal(\(block.location(in: document))): \(missing.reason)")
        }
        for block in document.runBlocks where Workspace.missingRequirement(of: block) == nil {
            switch block.kind {
            case .shell:
                let commands = document.commands(of: block)
                let outputs = try workspace.run(commands.map(\.text))
                for (command, actual) in zip(commands, outputs) {
                    if Self.recording {
                        recorded.append((command.outputLines, Self.lines(of: actual)))
                    } else {
                        #expect(Self.masked(actual) == Self.masked(command.output), "\(block.location(in: document)): \(command.text)")
                    }
                }
            case .terminal:
                let actual = try workspace.type(block.body)
                if Self.recording {
                    recorded.append(((block.start + 1)..<(block.start + block.body.count), actual))
                } else {
                    #expect(actual == Array(block.body.dropFirst()), "\(block.location(in: document)): the session differs")
                }
            case .swift, .output, .other:
                continue
            }
        }
        if Self.recording, !recorded.isEmpty {
            // From the last, so that rewriting one does not move the others.
            for (lines, replacement) in recorded.sorted(by: { $0.lines.lowerBound > $1.lines.lowerBound }) {
                document.lines.replaceSubrange(lines, with: replacement)
            }
            try document.lines.joined(separator: "\n").write(toFile: GraphStoreBinary.packageRoot.appendingPathComponent(page.name).path, atomically: true, encoding: .utf8)
        }
    }

    /// The lines of a command's output, as the page holds them.
    static func lines(of output: String) -> [String] {
        let body = output.hasSuffix("\n") ? String(output.dropLast()) : output
        return body.isEmpty ? [] : body.components(separatedBy: "\n")
    }

    /// Output with its timings (`(0.02 s)`) masked: they differ from run to run.
    static func masked(_ output: String) -> String {
        output.replacingOccurrences(of: #"\(\d+\.\d+ s\)"#, with: "(… s)", options: .regularExpression)
    }

    // MARK: Swift

    /// Every Swift block of the pages, compiled as one program (Swift 6, warnings as errors)
    /// with the BookStore example's generated classes; the blocks with an output block run,
    /// from a copy of the examples, and print what it says.
    @Test func swiftBlocksCompileAndRun() throws {
        var documents = try Self.pages.map { try DocumentPage($0.name) }
        let program = SwiftExamples(documents)
        #expect(program.examples.count >= 15)
        #expect(program.examples.filter { $0.output != nil }.count >= 6, "examples that run")
        let workspace = try Workspace()
        let built = try program.build(in: workspace)
        try #require(built.status == 0, "the pages' Swift does not compile:\n\(built.output)")
        let outputs = try workspace.runProgram(built.executable, examples: program.examples.indices.filter { program.examples[$0].output != nil })
        var recorded: [Int: [(lines: Range<Int>, with: [String])]] = [:]
        for (index, actual) in outputs {
            let example = program.examples[index]
            guard let output = example.output else { continue }
            let document = documents[example.page]
            if Self.recording {
                recorded[example.page, default: []].append(((output.start)..<(output.start + output.body.count), Self.lines(of: actual)))
            } else {
                #expect(actual == output.body.map { $0 + "\n" }.joined(), "\(example.block.location(in: document)): what it prints")
            }
        }
        for (page, replacements) in recorded {
            for (lines, replacement) in replacements.sorted(by: { $0.lines.lowerBound > $1.lines.lowerBound }) {
                documents[page].lines.replaceSubrange(lines, with: replacement)
            }
            let path = GraphStoreBinary.packageRoot.appendingPathComponent(documents[page].name).path
            try documents[page].lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        }
    }

    /// A fragment that names a value the test cannot make does not run.
    @Test func aFragmentRunsOnlyWithValuesTheTestCanMake() throws {
        #expect(SwiftExamples.argument(for: "context: ManagedObjectContext", example: 3) != nil)
        #expect(SwiftExamples.argument(for: "dataSource: MyDataSource", example: 3) == nil)
        let page = DocumentPage.blocks(in: ["```swift", "// given: context: ManagedObjectContext, book: Book", "print(book)", "```"])
        #expect(SwiftExamples.givens(of: page[0]) == ["context: ManagedObjectContext", "book: Book"])
    }
}

/// A working directory for a page's examples: a copy of the package's `examples/` (so that a
/// `--write` changes only the copy) in `package/`, with `shared/` beside it leading to the
/// real `../shared` (the corpus), as it lies beside the package.
struct Workspace {
    let scratch: URL
    var package: URL { scratch.appendingPathComponent("package") }
    let home: Scratch

    init() throws {
        scratch = try ScratchDirectory.make("document-examples")
        home = try Scratch()
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: GraphStoreBinary.packageRoot.appendingPathComponent("examples"), to: package.appendingPathComponent("examples"))
        let shared = GraphStoreBinary.packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
        if FileManager.default.fileExists(atPath: shared.path) {
            try FileManager.default.createSymbolicLink(at: scratch.appendingPathComponent("shared"), withDestinationURL: shared)
        }
    }

    struct Requirement {
        var reason: String
        var isCorpus: Bool
    }

    /// What a block needs that is not here: the corpus, or the `sqlite3` program.
    static func missingRequirement(of block: DocumentPage.Block) -> Requirement? {
        let text = block.body.joined(separator: "\n")
        let corpus = GraphStoreBinary.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus").path
        if text.contains("../shared/corpus"), !FileManager.default.fileExists(atPath: corpus) {
            return Requirement(reason: "../shared/corpus is not present", isCorpus: true)
        }
        if block.body.contains(where: { $0.hasPrefix("$ sqlite3 ") }), !FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") {
            return Requirement(reason: "sqlite3 is not installed", isCorpus: false)
        }
        return nil
    }

    /// Runs a transcript's commands with one `sh`, as a reader types them into one shell (so
    /// that `echo $?` is the status of the command before it), and returns what each printed.
    func run(_ commands: [String]) throws -> [String] {
        // A separator before each command, keeping the status of the one before.
        let separator = #"__status=$?; printf '\036\n'; (exit $__status)"#
        let script = commands.map { separator + "\n" + $0 }.joined(separator: "\n") + "\n"
        let output = try ManualExamplesTests.run(script, in: package, home: home.path)
        return Array(output.components(separatedBy: "\u{1e}\n").dropFirst())
    }

    /// Types a session at a terminal of 120 × 50: `body` is the block, `$ graphstore …`
    /// first; returns the screen's lines, the last prompt marked `^D` when Ctrl-D ended it.
    func type(_ body: [String]) throws -> [String] {
        guard let first = body.first, first.hasPrefix("$ graphstore") else { throw TerminalError("a session starts with $ graphstore: \(body.first ?? "")") }
        let arguments = Array(Self.words(String(first.dropFirst(2))).dropFirst())
        let environment = ["HOME": home.path, "TERM": "xterm", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PAGER": "", "NO_COLOR": "1"]
        let terminal = try PseudoTerminal(arguments: arguments, environment: environment, columns: 120, rows: 50, directory: package.path)
        var endedByControlD = false
        var typedOnRow = -1
        for line in body.dropFirst() {
            guard let typed = line.wholeMatch(of: /([A-Za-z0-9_.-]+\*?> |\s*\.\.\.> )(.*)/) else { continue }
            let prompt = String(typed.1).trimmingCharacters(in: .whitespaces)
            // A new prompt, below the line typed last (until its echo comes, that line still
            // shows the prompt alone).
            guard terminal.waitFor({ $0.row > typedOnRow && $0.currentLine.trimmingCharacters(in: .whitespaces) == prompt }) else {
                throw TerminalError("no prompt \(prompt) before \(line): \(terminal.screen.text)")
            }
            typedOnRow = terminal.screen.row
            if typed.2 == "^D" {
                terminal.type("\u{4}")
                endedByControlD = true
            } else {
                terminal.type(typed.2 + "\r")
            }
        }
        _ = terminal.waitForExit()
        var screen = terminal.screen.text
        while screen.last == "" { screen.removeLast() }
        if endedByControlD, let last = screen.lastIndex(where: { $0.hasSuffix(">") }) { screen[last] += " ^D" }
        return screen
    }

    /// A command line's words, as `sh` splits them (quotes, no expansions).
    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var current: String?   // nil between words ('' is a word)
        var quote: Character?
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { current = (current ?? "") + String(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                current = current ?? ""
            } else if character == " " {
                if let word = current { words.append(word) }
                current = nil
            } else {
                current = (current ?? "") + String(character)
            }
        }
        if let word = current { words.append(word) }
        return words
    }

    /// Runs the pages' program once for the examples given, from the package copy; what each printed.
    func runProgram(_ executable: String, examples: [Int]) throws -> [(Int, String)] {
        let command = ([executable] + examples.map(String.init)).joined(separator: " ")
        let output = try ManualExamplesTests.run(command, in: package, home: home.path)
        let parts = output.components(separatedBy: "\u{1e}\n")
        if parts.count != examples.count + 1 { Issue.record("the examples' program printed \(output)") }
        return Array(zip(examples, parts.dropFirst()))
    }
}
