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

    /// Every relative link of the README, ARCHITECTURE.md and the pages of docs/ leads to a
    /// file, and its `#anchor` to a heading of that page: a section that moves takes its
    /// links along.
    @Test func linksLeadToFilesAndSections() throws {
        let docs = try FileManager.default.contentsOfDirectory(atPath: GraphStoreBinary.packageRoot.appendingPathComponent("docs").path)
        let names = ["README.md", "ARCHITECTURE.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        var anchors: [String: Set<String>] = [:]
        for name in names { anchors[name] = Set(try DocumentPage(name).prose.compactMap(DocumentPage.anchor(ofHeading:))) }
        var links = 0
        for name in names {
            for line in try DocumentPage(name).prose {
                for match in line.matches(of: /\]\(([^)#\s]*)(?:#([^)\s]+))?\)/) where !match.1.hasPrefix("http") {
                    links += 1
                    let folder = (name as NSString).deletingLastPathComponent
                    let target = match.1.isEmpty ? name : ((folder as NSString).appendingPathComponent(String(match.1)) as NSString).standardizingPath
                    guard FileManager.default.fileExists(atPath: GraphStoreBinary.packageRoot.appendingPathComponent(target).path) else {
                        Issue.record("\(name): a link to \(match.1), which is not there")
                        continue
                    }
                    if let anchor = match.2, target.hasSuffix(".md") {
                        #expect(anchors[target]?.contains(String(anchor)) == true, "\(name): a link to \(target)#\(anchor), a section it does not have")
                    }
                }
            }
        }
        #expect(links > 30)
    }

    // MARK: Shell transcripts and terminal sessions

    /// The page's transcripts and sessions, in order, in one working directory: a block may
    /// use the files an earlier one made, as a reader following the page would.
    @Test(arguments: pages) func transcriptsAreReal(_ page: Page) throws {
        var document = try DocumentPage(page.name)
        let workspace = try Workspace()
        var recorded: [Replacement] = []
        for block in document.runBlocks where block.kind == .shell || block.kind == .terminal {
            if let missing = Workspace.missingRequirement(of: block) {
                Self.skip(block.location(in: document), because: missing)
            } else if block.kind == .shell {
                let commands = document.commands(of: block)
                for (command, actual) in zip(commands, try workspace.run(commands.map(\.text))) {
                    recorded.append(Replacement(lines: command.outputLines, with: Self.lines(of: actual)))
                    if !Self.recording {
                        #expect(Self.masked(actual) == Self.masked(command.output), "\(block.location(in: document)): \(command.text)")
                    }
                }
            } else {
                let actual = try workspace.type(block.body)
                recorded.append(Replacement(lines: (block.start + 1)..<(block.start + block.body.count), with: actual))
                if !Self.recording {
                    #expect(actual == Array(block.body.dropFirst()), "\(block.location(in: document)): the session differs")
                }
            }
        }
        if Self.recording { try document.write(recorded) }
    }

    /// Says that a block did not run, and why (`skipped NAME: REASON`, with no colon in the
    /// name, so that `make skipped` counts it by its reason); a missing corpus fails under
    /// `GRAPHSTORE_REQUIRE_CORPUS=1`.
    static func skip(_ location: String, because missing: Workspace.Requirement) {
        if missing.isCorpus, ProcessInfo.processInfo.environment["GRAPHSTORE_REQUIRE_CORPUS"] == "1" {
            Issue.record("\(location): ../shared/corpus is required (GRAPHSTORE_REQUIRE_CORPUS=1) but missing")
        }
        print("skipped transcriptsAreReal(\(location.replacingOccurrences(of: ":", with: " line "))): \(missing.reason)")
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
        #expect(program.runnable.count >= 6, "examples that run")
        for example in program.examples where example.output != nil && !program.runnable.contains(example.number) {
            Issue.record("\(example.block.location(in: documents[example.page])): it says what it prints, but the test cannot make \(example.givens)")
        }
        let workspace = try Workspace()
        let built = try program.build(in: workspace)
        try #require(built.status == 0, "the pages' Swift does not compile:\n\(built.output)")
        var recorded: [Int: [Replacement]] = [:]
        for (number, actual) in try workspace.runProgram(built.executable, examples: program.runnable) {
            let example = program.examples[number]
            guard let output = example.output else { continue }
            recorded[example.page, default: []].append(Replacement(lines: output.start..<(output.start + output.body.count), with: Self.lines(of: actual)))
            if !Self.recording {
                #expect(actual == output.body.map { $0 + "\n" }.joined(), "\(example.block.location(in: documents[example.page])): what it prints")
            }
        }
        if Self.recording {
            for (page, replacements) in recorded { try documents[page].write(replacements) }
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
