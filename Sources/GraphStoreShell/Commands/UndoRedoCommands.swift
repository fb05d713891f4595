import GraphStore

/// `undo [N]` and `redo [N]`: take back or apply again the last N undo groups.
enum UndoRedoCommands {
    static let undo = ShellCommand(
        "undo", usage: "undo [N]",
        summary: "take back the last N undo groups (default 1); with --write every command line is one group",
        example: "undo 2", writes: true
    ) { shell, words, _ in
        try step(shell, words, redo: false)
    }

    static let redo = ShellCommand(
        "redo", usage: "redo [N]", summary: "apply again the last N undone groups (default 1)", example: "redo", writes: true
    ) { shell, words, _ in
        try step(shell, words, redo: true)
    }

    private static func step(_ shell: Shell, _ words: [String], redo: Bool) throws {
        let name = redo ? "redo" : "undo"
        guard words.count <= 1 else { throw ShellError("usage: \(name) [N]") }
        var count = 1
        if let word = words.first {
            guard let n = Int(word), n >= 1 else { throw ShellError("\(name): N must be a whole number of groups, at least 1, not \(word)") }
            count = n
        }
        let manager = try shell.requireUndoManager(name)
        if shell.undoState.block != nil { throw ShellError("\(name) inside begin … end: end the group first") }
        let available = redo ? manager.redoGroupCount : manager.undoGroupCount
        guard count <= available else {
            throw ShellError("\(name) \(count): \(available == 0 ? "nothing" : "only \(available) group\(available == 1 ? "" : "s")") to \(name)")
        }
        var done = 0
        defer { if done > 0 { journal(shell, count: done, redo: redo) } }
        for _ in 0..<count {
            let number = (redo ? manager.redoGroupNumber : manager.undoGroupNumber) ?? 0
            let action = (redo ? manager.redoActionName : manager.undoActionName) ?? ""
            do {
                if redo { try manager.redo() } else { try manager.undo() }
            } catch {
                throw ShellError("\(error)")
            }
            done += 1
            shell.output("\(redo ? "redid" : "undid") #\(number) \(action)\n")
        }
    }

    /// Journals the groups actually undone or redone.
    private static func journal(_ shell: Shell, count: Int, redo: Bool) {
        guard let journal = shell.undoState.journal, !shell.undoState.isDryRun else { return }
        do {
            if try !journal.write(undo: count, redo: redo) {
                shell.diagnostics("note: this undo takes back groups made before the journal started; replaying the journal cannot\n")
            }
        } catch {
            shell.diagnostics("\(error)\n")
        }
    }
}
