import Foundation

/// Records undo groups as REPL command lines, as they are made: a group of one line is
/// the line; a longer (or named) group is `begin [NAME]`, its lines, `end`. Saves,
/// rollbacks, undos and redos are lines of their own. The file is a script: `replay`
/// applies it group by group, and `graphstore --write` can also run it directly.
///
/// ```
/// -- graphstore journal of BookStore.sqlite
/// insert Book title="Dune" price=18.5
/// begin two books
/// insert Book title="A"
/// insert Book title="B"
/// end
/// undo 1
/// save
/// ```
final class JournalWriter {
    /// The journal file, as typed.
    let path: String
    /// The journal file's path, resolved against the shell's directory.
    let resolvedPath: String
    private let handle: FileHandle
    /// Groups made since the journal started that are on the undo stack: an undo deeper
    /// than this takes back groups the journal does not hold, which a replay cannot do.
    private(set) var groupsOnStack = 0

    /// Starts a journal (replacing the file at `resolvedPath`) with a header comment.
    init(path: String, resolvedPath: String, storeName: String) throws {
        guard FileManager.default.createFile(atPath: resolvedPath, contents: nil), let handle = FileHandle(forWritingAtPath: resolvedPath) else {
            throw ShellError("cannot write the journal \(path)")
        }
        self.path = path
        self.resolvedPath = resolvedPath
        self.handle = handle
        try append("-- graphstore journal of \(storeName)\n")
    }

    deinit { try? handle.close() }

    /// Writes a group.
    func write(_ block: ShellUndoState.Block) throws {
        if block.name == nil, block.lines.count == 1 {
            try append(block.lines[0] + "\n")
        } else {
            try append((["begin" + (block.name.map { " " + $0 } ?? "")] + block.lines + ["end"]).joined(separator: "\n") + "\n")
        }
        groupsOnStack += 1
    }

    /// Writes an undo or redo line; returns false when the undo reaches before the journal.
    func write(undo count: Int, redo: Bool) throws -> Bool {
        try append("\(redo ? "redo" : "undo") \(count)\n")
        if redo {
            groupsOnStack += count
            return true
        }
        groupsOnStack -= count
        return groupsOnStack >= 0
    }

    private func append(_ text: String) throws {
        do {
            try handle.write(contentsOf: Data(text.utf8))
        } catch {
            throw ShellError("cannot write the journal \(path): \(error)")
        }
    }
}
