import GraphStore

/// `reload [ENTITY/KEY …]`: reads objects again from the store, dropping this session's
/// unsaved changes to them: how a save conflict is resolved in the store's favour.
enum ReloadCommand {
    static let objectNames = Placeholder("ENTITY/KEY", .object)

    static let command = ShellCommand(
        "reload", arguments: [.optional([.repeated([.value(objectNames)])])],
        summary: "read objects again from the store, dropping your unsaved changes to them; with no object, every object of the last save conflict",
        example: "reload Book/p1",
        details: """
            After a save that found conflicts (133020), reload takes the stored values and version of \
            the conflicting objects, so the next save writes your other changes without a conflict \
            (save --force keeps yours instead). A reloaded object whose row someone else deleted \
            leaves the session. The other side of a reloaded object's relationships is made to \
            agree with the store. The undo history is cleared, as by rollback.
            """
    ) { shell, arguments in
        let context = try shell.requireContext()
        let words = arguments.words(objectNames)
        let objects = try words.isEmpty ? conflicting(shell, context) : words.map { try named($0, shell, context) }
        let gone = Set(try context.reload(objects))
        for object in objects {
            shell.output(gone.contains(object.objectID) ? "\(object.objectID) is no longer in the store: dropped\n" : "reloaded \(object.objectID)\n")
        }
        if let remembered = shell.state.conflicts {
            let left = remembered.ids.filter { id in !objects.contains { $0.objectID == id } }
            shell.state.conflicts = left.isEmpty ? nil : SessionState.Conflicts(context: context, ids: left)
        }
    }

    /// The objects of the last save conflict in this context.
    private static func conflicting(_ shell: Shell, _ context: ManagedObjectContext) throws -> [ManagedObject] {
        guard let remembered = shell.state.conflicts, remembered.context === context else {
            throw ShellError("reload: name the objects to read again (reload Book/p1), or run it after a save that found conflicts")
        }
        return try remembered.ids.map { try context.object(for: $0) }
    }

    /// `Book/p1`: an object of the last conflict (a deleted one included), or any stored object.
    private static func named(_ word: String, _ shell: Shell, _ context: ManagedObjectContext) throws -> ManagedObject {
        if let remembered = shell.state.conflicts, remembered.context === context,
            let id = remembered.ids.first(where: { ConflictReport.name($0).lowercased() == word.lowercased() })
        {
            return try context.object(for: id)
        }
        let object = try ObjectReference(word, wantsKey: false).resolve(in: shell)
        guard !object.objectID.isTemporary else {
            throw ShellError("reload: \(object.objectID) was never saved, so there is nothing to read again (delete it or rollback)")
        }
        return object
    }
}
