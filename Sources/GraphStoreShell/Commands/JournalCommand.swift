import Foundation
import GraphStore

/// `.journal [FILE|off]`: records every undo group, as it is made, as REPL commands.
enum JournalCommand {
    static let command = ShellCommand(
        ".journal", usage: ".journal [FILE|off]",
        summary: "record every undo group as it is made (plus saves, rollbacks, undos, redos) in FILE, a script replay applies",
        example: ".journal restock.journal",
        details: "FILE is replaced. The open store and its -wal, -shm and -journal files are refused."
    ) { shell, words, _ in
        guard words.count <= 1 else { throw ShellError("usage: .journal [FILE|off]") }
        guard let word = words.first else {
            shell.output("journal: \(shell.undoState.journal?.path ?? "off")\n")
            return
        }
        if word == "off" {
            shell.undoState.journal = nil
            shell.output("journal: off\n")
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
