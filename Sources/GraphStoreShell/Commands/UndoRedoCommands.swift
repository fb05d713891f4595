import GraphStore

/// `undo [N]` and `redo [N]`: take back or apply again the last N undo groups.
enum UndoRedoCommands {
    static let count = Placeholder("N", .wholeNumber(from: 1))

    static let undo = ShellCommand(
        "undo", arguments: [.optional([.value(count)])],
        summary: "take back the last N undo groups (default 1); with --write every command line is one group",
        example: "undo 2", writes: true
    ) { shell, arguments in
        try step(shell, count: arguments.number(count) ?? 1, redo: false)
    }

    static let redo = ShellCommand(
        "redo", arguments: [.optional([.value(count)])], summary: "apply again the last N undone groups (default 1)", example: "redo", writes: true
    ) { shell, arguments in
        try step(shell, count: arguments.number(count) ?? 1, redo: true)
    }

    private static func step(_ shell: Shell, count: Int, redo: Bool) throws {
        let name = redo ? "redo" : "undo"
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
