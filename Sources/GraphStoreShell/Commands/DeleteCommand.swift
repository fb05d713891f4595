import GraphStore

/// `delete ENTITY/PK`: deletes an object, applying its delete rules now (cascades are
/// listed; a Deny rule that will fail the save is announced).
enum DeleteCommand {
    static let target = Placeholder("ENTITY/KEY", .object)

    static let command = ShellCommand(
        "delete", arguments: [.value(target)],
        summary: "delete an object: nullify and cascade rules apply now (cascaded objects are listed), Deny is checked at save",
        example: "delete Unit/p1", writes: true
    ) { shell, arguments in
        let object = try ObjectReference(try arguments.word(target), wantsKey: false).resolve(in: shell)
        let context = try shell.requireContext()
        // validateForDelete answers beforehand what the save will say about Deny rules.
        var denial: String?
        do {
            try object.validateForDelete()
        } catch let failure as any ValidationErrorReporting {
            denial = failure.validationErrors.map(\.description).joined(separator: "; ")
        }
        let before = Set((context.deletedObjects + context.insertedObjects).map(ObjectIdentifier.init))
        let pending = context.insertedObjects
        do {
            try context.delete(object)
        } catch {
            throw ShellError("\(error)")
        }
        let cascaded = (context.deletedObjects.filter { !before.contains(ObjectIdentifier($0)) } + pending.filter(\.isDeleted))
            .filter { $0 !== object }
        var line = "deleted \(object.objectID)"
        if !cascaded.isEmpty { line += "; cascade also deleted \(cascaded.map(\.objectID.description).joined(separator: ", "))" }
        shell.output(line + "\n")
        if let denial { shell.diagnostics("note: \(denial); the save will fail until that changes\n") }
    }
}
