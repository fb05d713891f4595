import GraphStore

/// `save` and `rollback`: end the pending changes one way or the other.
enum SaveCommand {
    static let save = ShellCommand(
        "save", usage: "save",
        summary: "validate and save every pending change in one transaction; on failure print object, entity, key, value, rule, code",
        example: "save", writes: true
    ) { shell, words, _ in
        guard words.isEmpty else { throw ShellError("usage: save") }
        let context = try shell.requireContext()
        guard context.hasChanges else {
            shell.output("nothing to save\n")
            return
        }
        let counts = summary(context)
        do {
            try context.save()
        } catch let failure as any ValidationErrorReporting {
            throw ValidationRows.saveFailure(shell, failure)
        } catch {
            throw ShellError("save failed: \(error); nothing was written and the changes are still pending")
        }
        shell.output("saved: \(counts)\n")
    }

    static let rollback = ShellCommand(
        "rollback", usage: "rollback", summary: "discard every pending change (inserts, updates, deletes)", example: "rollback"
    ) { shell, words, _ in
        guard words.isEmpty else { throw ShellError("usage: rollback") }
        let context = try shell.requireContext()
        guard context.hasChanges else {
            shell.output("nothing to roll back\n")
            return
        }
        let counts = summary(context)
        context.rollback()
        shell.output("rolled back: \(counts)\n")
    }

    private static func summary(_ context: ManagedObjectContext) -> String {
        "\(context.insertedObjects.count) inserted, \(context.updatedObjects.count) updated, \(context.deletedObjects.count) deleted"
    }
}
