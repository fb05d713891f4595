import Foundation
import GraphStore

/// `.journal [FILE|off]`: records every undo group, as it is made, as REPL commands.
enum JournalCommand {
    static let file = Placeholder("FILE", .file)

    static let command = ShellCommand(
        ".journal", arguments: [.optional([.word([.placeholder(file), .literal("off")])])],
        summary: "record every undo group as it is made (plus saves, rollbacks, undos, redos) in FILE, a script replay applies",
        example: ".journal restock.journal",
        details: "FILE is replaced. The open store and its -wal, -shm and -journal files are refused."
    ) { shell, arguments in
        if arguments.has("off") {
            shell.undoState.journal = nil
            shell.output("journal: off\n")
            return
        }
        guard let word = arguments[file] else {
            shell.output("journal: \(shell.undoState.journal?.path ?? "off")\n")
            return
        }
        _ = try shell.requireUndoManager(".journal")
        let store = try shell.requireStore()
        let resolved = shell.resolve(path: word)
        try shell.checkNotStoreFile(resolved, shownAs: word)
        shell.undoState.journal = try JournalWriter(path: word, resolvedPath: resolved, storeName: (store.path as NSString).lastPathComponent)
        shell.output("journal: recording to \(word)\n")
    }
}
