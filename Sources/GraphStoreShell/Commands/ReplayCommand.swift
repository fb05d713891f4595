import Foundation
import GraphStore

/// `replay FILE [--dry-run]`: applies a journal group by group, each replayed group again
/// one undo group; stops at the first failing line, taking back that line's group.
/// `--dry-run` lists what each group would change and changes nothing (no `--write`
/// needed: saves, rollbacks, undos and redos in the journal are listed, not run).
enum ReplayCommand {
    static let file = Placeholder("FILE", .file)

    static let command = ShellCommand(
        "replay", arguments: [.value(file), .flag("--dry-run")],
        summary: "apply a journal group by group (each an undo group), stopping at the first failure; --dry-run shows the changes only",
        example: "replay restock.journal --dry-run"
    ) { shell, arguments in
        let dryRun = arguments.has("--dry-run")
        let path = try arguments.word(file)
        let context = try shell.requireContext()
        // With --write the manager is installed on first use: before the dry run looks.
        shell.prepareUndoManager()
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw ShellError("replay: cannot read \(path)") }
        if shell.undoState.isReplaying { throw ShellError("replay inside a replay") }
        if shell.undoState.block != nil { throw ShellError("replay inside begin … end: end the group first") }
        let items = try JournalReader.items(text, path: path) { name in
            guard let command = shell.command(named: name) else { return false }
            return command.writes && !ShellUndoState.groupCommands.contains(command.name)
                && !ShellUndoState.journaledCommands.contains(command.name)
        }
        shell.undoState.isReplaying = true
        defer { shell.undoState.isReplaying = false }
        if dryRun {
            try preview(items, path: path, shell: shell, context: context)
        } else {
            guard shell.writeEnabled else { throw ShellError("replay changes data; open the store with --write to allow it (or use --dry-run)") }
            try apply(items, path: path, shell: shell)
        }
    }

    /// Runs the journal; only replay's own lines are shown, not the replayed commands'.
    private static func apply(_ items: [JournalReader.Item], path: String, shell: Shell) throws {
        _ = try shell.requireUndoManager("replay")
        var groups = 0
        var commands = 0
        let output = shell.output
        defer { shell.output = output }
        shell.output = { _ in }
        for item in items {
            switch item {
            case .group(let name, let lines):
                try shell.beginBlock(name: name)
                for (number, text) in lines {
                    do {
                        try shell.execute(text)
                    } catch {
                        shell.abandonBlock()
                        throw stopped(path, number, error, groups)
                    }
                }
                let action = shell.undoState.block?.actionName ?? ""
                let made = try shell.endBlock()
                groups += 1
                output("replayed \(made.map { "#\($0)" } ?? "(no change)") \(action)\n")
            case .command(let number, let text):
                do {
                    try shell.execute(text)
                } catch {
                    throw stopped(path, number, error, groups)
                }
                commands += 1
                output("ran \(text)\n")
            }
        }
        output("replayed \(path): \(groups) group\(groups == 1 ? "" : "s"), \(commands) other command\(commands == 1 ? "" : "s")\n")
    }

    /// Runs each group inside one outer group that is taken back at the end, listing the
    /// changes each made. A store opened read-only is fine: nothing is saved.
    private static func preview(_ items: [JournalReader.Item], path: String, shell: Shell, context: ManagedObjectContext) throws {
        let installed = context.undoManager
        let manager = installed ?? ContextUndoManager()
        if installed == nil { context.undoManager = manager }
        let writeEnabled = shell.writeEnabled
        let output = shell.output
        shell.undoState.isDryRun = true
        shell.writeEnabled = true
        shell.output = { _ in }
        manager.beginUndoGrouping()
        defer {
            shell.abandonBlock()
            try? manager.revertOpenGroup()
            shell.output = output
            shell.writeEnabled = writeEnabled
            shell.undoState.isDryRun = false
            if installed == nil { context.undoManager = nil }
        }
        var groups = 0
        var changes = 0
        for item in items {
            switch item {
            case .group(let name, let lines):
                let before = manager.openChangeCount
                var notes: [String] = []
                try shell.beginBlock(name: name)
                for (number, text) in lines {
                    if notPreviewed(text) {
                        notes.append("      would run: \(text) (line \(number), not previewed)\n")
                        continue
                    }
                    do {
                        try shell.execute(text)
                    } catch {
                        throw stopped(path, number, error, groups, verb: "previewed")
                    }
                }
                let action = shell.undoState.block?.actionName ?? ""
                shell.undoState.block = nil
                try manager.endUndoGrouping()
                groups += 1
                let made = Array((manager.history.openGroup?.changes ?? []).dropFirst(before))
                changes += made.count
                output("group \(groups): \(action)\n")
                if made.isEmpty { output("      (no change)\n") }
                UndoListCommand.write(made, to: output)
                notes.forEach(output)
            case .command(let number, let text):
                if notPreviewed(text) {
                    output("would run: \(text) (line \(number), not previewed)\n")
                    continue
                }
                do {
                    try shell.execute(text)
                } catch {
                    throw stopped(path, number, error, groups, verb: "previewed")
                }
            }
        }
        output("dry run of \(path): \(groups) group\(groups == 1 ? "" : "s"), \(changes) change\(changes == 1 ? "" : "s"); nothing was changed\n")
    }

    /// Lines a dry run must not run: they would write the store or move between groups.
    private static func notPreviewed(_ line: String) -> Bool {
        ["save", "rollback", "reload", "undo", "redo"].contains(String(line.prefix { !$0.isWhitespace }))
    }

    private static func stopped(_ path: String, _ number: Int, _ error: any Error, _ groups: Int, verb: String = "applied") -> ShellError {
        let message = (error as? ShellError)?.message ?? "\(error)"
        return ShellError("\(path):\(number): \(message) (replay stopped; \(groups) group\(groups == 1 ? "" : "s") before it \(verb))")
    }
}
