import ArgumentParser
import Foundation
import GraphStoreShell

/// `graphstore`: a line-editing shell for Core Data SQLite stores.
struct GraphStoreTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graphstore",
        abstract: "Open a Core Data SQLite store: entities, rows, predicate fetches, validation, undo.",
        discussion: """
            With no -c, commands are read from the terminal (with line editing) or from standard input.
            Exit codes: 0 success, 1 a command failed, 2 usage error, 3 validation failures found, \
            4 the store could not be opened.
            """,
        version: GraphStoreVersion.string
    )

    @Option(name: .long, help: "A model file (.xcdatamodeld or .xcdatamodel) to open the store with.")
    var model: String?

    @Flag(name: .long, help: "Allow changes to the store (it is opened read-only otherwise).")
    var write = false

    @Option(name: .customShort("c"), help: "Run a command, then exit (repeatable).")
    var command: [String] = []

    @Argument(help: "The store to open (a Core Data SQLite file).")
    var store: String?

    mutating func run() throws {
        let shell = Shell(
            writeEnabled: write,
            output: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
            diagnostics: { text in FileHandle.standardError.write(Data(text.utf8)) })
        if let store {
            do {
                try shell.open(path: store, modelPath: model)
            } catch {
                shell.diagnostics("graphstore: \(error)\n")
                throw ExitCode((error as? ShellError)?.exitCode ?? ExitStatus.storeNotOpened)
            }
        }
        let status: Int32
        if !command.isEmpty {
            status = Session(shell: shell, bail: true).run(TextLineSource(lines: command, name: "-c"))
        } else if isatty(STDIN_FILENO) == 1, let editor = EditLineSource(program: "graphstore", historyPath: historyPath()) {
            status = Session(shell: shell, bail: false).run(editor)
        } else {
            status = Session(shell: shell, bail: true).run(TextLineSource(handle: .standardInput, name: "stdin"))
        }
        if status != 0 { throw ExitCode(status) }
    }

    private func historyPath() -> String? {
        if let path = ProcessInfo.processInfo.environment["GRAPHSTORE_HISTORY"] { return path }
        return ProcessInfo.processInfo.environment["HOME"].map { $0 + "/.graphstore_history" }
    }
}

// Usage errors exit with 2 (as documented), not swift-argument-parser's 64.
do {
    var tool = try GraphStoreTool.parseAsRoot()
    try tool.run()
} catch {
    let code = GraphStoreTool.exitCode(for: error)
    if code == .validationFailure {
        FileHandle.standardError.write(Data((GraphStoreTool.fullMessage(for: error) + "\n").utf8))
        exit(ExitStatus.usage)
    }
    GraphStoreTool.exit(withError: error)
}
