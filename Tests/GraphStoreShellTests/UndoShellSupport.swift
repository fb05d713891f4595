import Foundation
@testable import GraphStore
@testable import GraphStoreShell
import TestScratch

/// A shell on a fresh copy of the BookStore seed, capturing what it prints.
final class UndoShellRun {
    let shell: Shell
    let path: String
    let directory: String
    private let sink = Sink()
    /// Everything printed so far.
    var output: String { sink.output }
    /// Every message so far.
    var diagnostics: String { sink.diagnostics }

    private final class Sink {
        var output = ""
        var diagnostics = ""
    }

    /// The package root (for examples/ and the golden files).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    init(write: Bool = true, directory: String? = nil) throws {
        let directory = try directory ?? ScratchDirectory.make("graphstore-undo").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        self.directory = directory
        path = directory + "/BookStore-\(UUID().uuidString.prefix(8)).sqlite"
        try FileManager.default.copyItem(atPath: Self.packageRoot + "/examples/BookStore/BookStore.sqlite", toPath: path)
        let sink = sink
        shell = Shell(writeEnabled: write, output: { sink.output += $0 }, diagnostics: { sink.diagnostics += $0 })
        try shell.open(path: path)
    }

    /// Runs lines as a script; returns the exit status.
    @discardableResult
    func run(_ lines: [String], bail: Bool = true) -> Int32 {
        let session = Session(shell: shell, bail: bail)
        return session.run(TextLineSource(lines: lines, name: "script"))
    }

    /// Runs one line, returning its output (errors are thrown).
    @discardableResult
    func execute(_ line: String) throws -> String {
        let before = output.count
        try shell.execute(line)
        return String(output.dropFirst(before))
    }

    /// Rows of a query on the store file, as text.
    func rows(_ sql: String) throws -> [[String]] {
        try Connection(path: path, mode: .readOnly).rows(sql).map { $0.map(\.description) }
    }

    var manager: ContextUndoManager? { shell.context?.undoManager }
}
