import GraphStore

/// The REPL's undo: with `--write` the context gets an undo manager, and each command line
/// is one event, so the changes of a line form one undo group named by the line. Inside
/// `begin … end` (and each replayed group) every line is a nested group, so that a failing
/// line is taken back alone; outside, a failing line's changes are taken back whole. A
/// command line never leaves half of its changes behind.
extension Shell {
    /// Runs `body`, the command `command` on one command line, as the line's undo group
    /// (``execute(_:)`` calls it around every command): on failure the line's changes are
    /// taken back; inside `begin … end` the line is a nested group and is kept for the
    /// block's journal entry; outside, the group is named by the line and journaled.
    /// Commands that manage undo groups themselves run as they are.
    func withUndoGroup(for command: ShellCommand, line: String, _ body: () throws -> Void) throws {
        guard let manager = prepareUndoManager(), !ShellUndoState.groupCommands.contains(command.name) else {
            try body()
            return
        }
        let inBlock = undoState.block != nil
        let levelBefore = manager.groupingLevel
        let groupsBefore = manager.lastGroupNumber
        if inBlock { manager.beginUndoGrouping() }
        do {
            try body()
        } catch {
            // Only this line's changes: its nested group, or the event group it opened.
            if inBlock || (levelBefore == 0 && manager.groupingLevel == 1) { try? manager.revertOpenGroup() }
            throw error
        }
        let journaled = command.writes || ShellUndoState.journaledCommands.contains(command.name)
        if inBlock {
            try manager.endUndoGrouping()
            if journaled { undoState.block?.lines.append(line) }
            return
        }
        if levelBefore == 0, manager.groupingLevel == 1 { manager.setActionName(line) }
        manager.endEvent()
        if manager.lastGroupNumber != groupsBefore || ShellUndoState.journaledCommands.contains(command.name) {
            try journal(lines: [line])
        }
    }

    /// The open context's undo manager, installed on first use when writes are enabled.
    /// Another `.open` makes another context: an open group and the journal of the
    /// previous store end there.
    @discardableResult
    func prepareUndoManager() -> ContextUndoManager? {
        guard let context else { return nil }
        if undoState.context !== context {
            if undoState.hasHadContext, let journal = undoState.journal {
                diagnostics("note: journal \(journal.path) closed: another store was opened\n")
                undoState.journal = nil
            }
            undoState.block = nil
            undoState.context = context
            undoState.hasHadContext = true
            if writeEnabled, context.undoManager == nil { context.undoManager = ContextUndoManager() }
        }
        return context.undoManager
    }

    /// The undo manager, or an error saying undo needs `--write`.
    func requireUndoManager(_ command: String) throws -> ContextUndoManager {
        _ = try requireContext()
        guard let manager = prepareUndoManager() else {
            throw ShellError("\(command) needs a store opened with --write (changes are registered for undo only then)")
        }
        return manager
    }

    // MARK: - Groups of several lines

    /// Opens a `begin … end` group.
    func beginBlock(name: String?) throws {
        let manager = try requireUndoManager("begin")
        if undoState.block != nil { throw ShellError("a group is already open; end it first (begin … end do not nest)") }
        manager.beginUndoGrouping()
        undoState.block = ShellUndoState.Block(name: name)
    }

    /// Closes the open group: its changes become one undo group. Returns the group's
    /// number, or nil when the lines changed nothing.
    @discardableResult
    func endBlock() throws -> Int? {
        let manager = try requireUndoManager("end")
        guard let block = undoState.block else { throw ShellError("end without begin") }
        undoState.block = nil
        let before = manager.lastGroupNumber
        manager.setActionName(block.actionName)
        try manager.endUndoGrouping()
        try journal(block)
        return manager.lastGroupNumber != before ? manager.lastGroupNumber : nil
    }

    /// Takes back the changes of the open group and closes it.
    func abandonBlock() {
        guard undoState.block != nil, let manager = context?.undoManager else { return }
        undoState.block = nil
        try? manager.revertOpenGroup()
    }

    // MARK: - Journal

    /// Writes command lines as one group to the journal, if one is being recorded.
    func journal(lines: [String]) throws {
        guard let journal = undoState.journal, !undoState.isDryRun, !lines.isEmpty else { return }
        try journal.write(ShellUndoState.Block(name: nil, lines: lines))
    }

    private func journal(_ block: ShellUndoState.Block) throws {
        guard let journal = undoState.journal, !undoState.isDryRun, !block.lines.isEmpty else { return }
        try journal.write(block)
    }
}
