import Foundation
import Testing

@testable import GraphStore
@testable import GraphStoreShell

/// A shell with its output and diagnostics captured, in a directory of its own that holds
/// a link to the package's `examples`, so examples run as in the package root and files a
/// command writes land in the scratch directory.
final class ShellHarness {
    let shell: Shell
    let directory: String
    private let box: Captured

    final class Captured: @unchecked Sendable {
        var output = ""
        var diagnostics = ""
    }

    /// The package's root directory (two levels above this file).
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static let bookStore = packageRoot + "/examples/BookStore/BookStore.sqlite"

    /// A shell on a private copy of the BookStore example (opened for writing when `write`).
    init(openBookStore: Bool = true, write: Bool = false) throws {
        // Always /tmp, so that paths in recorded output have one length on every machine.
        directory = "/tmp/graphstore-shell-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory + "/examples/BookStore", withIntermediateDirectories: true)
        for name in ["BookStore.sqlite", "inspect.graphstore", "History.xcdatamodeld", "Mappings"] {
            try FileManager.default.copyItem(
                atPath: Self.packageRoot + "/examples/BookStore/" + name, toPath: directory + "/examples/BookStore/" + name)
        }
        let box = Captured()
        self.box = box
        shell = Shell(writeEnabled: write, output: { box.output += $0 }, diagnostics: { box.diagnostics += $0 })
        shell.state.directory = directory
        if openBookStore { try shell.open(path: directory + "/examples/BookStore/BookStore.sqlite") }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    var output: String { box.output }
    var diagnostics: String { box.diagnostics }

    /// Empties the captured text.
    func clear() {
        box.output = ""
        box.diagnostics = ""
    }

    /// Runs lines as a script named `name` (bail as given); returns the exit status.
    @discardableResult
    func run(_ lines: [String], bail: Bool = true, name: String = "test") -> Int32 {
        Session(shell: shell, bail: bail).run(TextLineSource(lines: lines, name: name))
    }

    /// Runs one line; returns what it printed.
    func output(of line: String) throws -> String {
        let before = box.output.count
        try shell.runStatement(line)
        return String(box.output.dropFirst(before))
    }

    /// Captured text made repeatable: the scratch directory's UUID as X's (the same length,
    /// so that tables stay aligned) and timings as `0.000s` (`.timer`) or `(0.00 s)` (`validate`).
    func stable(_ text: String) -> String {
        let placeholder = "/tmp/graphstore-shell-" + String(repeating: "X", count: directory.count - "/tmp/graphstore-shell-".count)
        return text.replacingOccurrences(of: directory, with: placeholder)
            .replacingOccurrences(of: #"\d+\.\d{3}s"#, with: "0.000s", options: .regularExpression)
            .replacingOccurrences(of: #"\(\d+\.\d{2} s\)"#, with: "(0.00 s)", options: .regularExpression)
    }
}

/// A line source standing in for a person at a terminal: answers, Ctrl-C and Ctrl-D come
/// from a list, and prompts and remembered lines are recorded.
final class ScriptedTerminal: LineSource {
    let name = "terminal"
    let isInteractive = true
    private var inputs: [LineInput]
    private var answers: [String?]
    private(set) var prompts: [String] = []
    private(set) var questions: [String] = []
    private(set) var remembered: [String] = []
    private(set) var finished = false

    /// `answers` are typed to questions in turn (nil: Ctrl-D); with none left, Ctrl-D.
    init(_ inputs: [LineInput], answers: [String?] = []) {
        self.inputs = inputs
        self.answers = answers
    }

    func read(prompt: String) -> LineInput {
        prompts.append(prompt)
        return inputs.isEmpty ? .end : inputs.removeFirst()
    }

    func ask(_ question: String) -> String? {
        questions.append(question)
        return answers.isEmpty ? nil : answers.removeFirst()
    }

    func remember(_ statement: String) { remembered.append(statement) }
    func finish() { finished = true }
}
