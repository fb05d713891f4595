import Foundation
import GraphStore

/// `.undo [levels [N]]`: both undo stacks with their groups and changes, or the levels.
enum UndoListCommand {
    /// Changes shown per group; the rest are counted.
    static let shownChanges = 20

    static let levels = Placeholder("N", .wholeNumber(from: 0))

    static let command = ShellCommand(
        ".undo", arguments: [.optional([.literal("levels"), .optional([.value(levels)])])],
        summary: "list the undo and redo stacks: group number, name (its command) and changes (object.key: old → new); levels N keeps N groups (0: all)",
        example: ".undo levels 2"
    ) { shell, arguments in
        let manager = try shell.requireUndoManager(".undo")
        if arguments.has("levels") {
            if let n = arguments.number(levels) { manager.levelsOfUndo = n }
            shell.output("levels of undo: \(manager.levelsOfUndo == 0 ? "unlimited" : "\(manager.levelsOfUndo)")\n")
            return
        }
        let history = manager.history
        if let open = history.openGroup {
            shell.output("open group (\(open.changes.count) change\(open.changes.count == 1 ? "" : "s") so far):\n")
            write(open, to: shell.output, number: false)
        }
        list("undo", history.undoGroups, to: shell)
        list("redo", history.redoGroups, to: shell)
    }

    private static func list(_ stack: String, _ groups: [UndoGroupSummary], to shell: Shell) {
        guard !groups.isEmpty else {
            shell.output("\(stack) stack: empty\n")
            return
        }
        shell.output("\(stack) stack (\(groups.count) group\(groups.count == 1 ? "" : "s"), next first):\n")
        for group in groups { write(group, to: shell.output, number: true) }
    }

    /// A group: `#N name`, then its changes indented.
    static func write(_ group: UndoGroupSummary, to output: (String) -> Void, number: Bool) {
        if number { output("  #\(group.number) \(group.actionName)\n") }
        write(group.changes, to: output)
    }

    /// Changes, one per indented line, the first ``shownChanges`` of them.
    static func write(_ changes: [UndoChange], to output: (String) -> Void) {
        for change in changes.prefix(shownChanges) { output("      \(change)\n") }
        if changes.count > shownChanges {
            output("      … \(changes.count - shownChanges) more changes\n")
        }
    }
}
