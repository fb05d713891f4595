import GraphStore

/// `save [--force]` and `rollback`: end the pending changes one way or the other.
enum SaveCommand {
    static let save = ShellCommand(
        "save", arguments: [.flag("--force"), .flag("--without-history")],
        summary: "validate and save every pending change in one transaction; on failure print object, entity, key, value, rule, code",
        example: "save",
        details: """
            A changed or deleted object that someone else saved (or deleted) since this session read it \
            is a conflict (133020): the save writes nothing, keeps the changes pending and prints each \
            conflicting object with both versions and, per attribute and to-one, your value and the \
            stored one. Then reload the objects to take the stored values, or save --force to write \
            yours over them (Core Data's overwrite merge policy: the whole object, changed keys or \
            not; a row someone else deleted cannot be overwritten, only reloaded). A store that tracks \
            persistent history gets the save's transaction and change rows, as Core Data writes them; where \
            GraphStore cannot write them so (see .history), the save is refused, and save --without-history \
            saves without them (the app's history readers and CloudKit mirroring then miss the change).
            """,
        writes: true
    ) { shell, arguments in
        let context = try shell.requireContext()
        guard context.hasChanges else {
            shell.output("nothing to save\n")
            return
        }
        let counts = summary(context)
        let overwritten: [MergeConflict]
        context.savesHistory = !arguments.has("--without-history")
        defer { context.savesHistory = true }
        do {
            overwritten = try context.save(mergePolicy: arguments.has("--force") ? .overwrite : context.mergePolicy)
        } catch HistoryError.cannotRecord(let path, let reason) {
            throw ShellError("save refused: \(path) keeps persistent history and GraphStore cannot write this save's history as Core Data would: \(reason). Nothing was written and the changes are still pending; save --without-history saves them with no history rows (the app's history readers and CloudKit mirroring will then not see the change)")
        } catch let failure as any ValidationErrorReporting {
            throw ValidationRows.saveFailure(shell, failure)
        } catch StoreError.optimisticLockingFailure(let conflicts) {
            shell.state.conflicts = SessionState.Conflicts(context: context, ids: conflicts.map(\.objectID))
            throw ConflictReport.saveFailure(conflicts)
        } catch {
            throw ShellError("save failed: \(error); nothing was written and the changes are still pending")
        }
        shell.state.conflicts = nil
        shell.output("saved: \(counts)\n")
        for conflict in overwritten { shell.output("overwrote: \(conflict)\n") }
    }

    static let rollback = ShellCommand(
        "rollback", summary: "discard every pending change (inserts, updates, deletes)", example: "rollback"
    ) { shell, _ in
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
