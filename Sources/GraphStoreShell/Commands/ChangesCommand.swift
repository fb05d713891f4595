import GraphStore

/// `.changes [on|off]`: the unsaved changes, or a summary after each command.
enum ChangesCommand {
    static let command = ShellCommand(
        ".changes", arguments: [OnOffArgument.optional], summary: "list unsaved changes; on|off: report them after each command that alters them",
        example: ".changes",
        details: """
            With no argument, lists every object inserted, updated or deleted since the last save: \
            change, object and the keys that changed. With on, each command that alters the pending \
            changes is followed by a line such as "changes: 2 unsaved changes (1 inserted, 1 updated)" \
            on standard error (sqlite3's .changes counts rows instead).
            """
    ) { shell, arguments in
        try run(shell, arguments)
    }

    /// An inserted object's keys that have values (everything about it is new).
    static func keysWithValues(_ object: ManagedObject) -> [String] {
        object.mapping.attributes.map(\.attribute.name).filter { name in
            ((try? object.value(forKey: name)) ?? nil) != nil
        }
    }

    private static func run(_ shell: Shell, _ arguments: ParsedArguments) throws {
        if arguments.has("on") || arguments.has("off") {
            shell.options.changes = OnOffArgument.value(arguments, current: shell.options.changes)
            return
        }
        let context = try shell.requireContext()
        shell.emit(columns: ["change", "object", "keys"]) { sink in
            for object in context.insertedObjects {
                sink.row([.text("inserted"), .text(object.objectID.description), .text(keysWithValues(object).joined(separator: ", "))])
            }
            for object in context.updatedObjects {
                sink.row([.text("updated"), .text(object.objectID.description), .text(object.changedKeys().joined(separator: ", "))])
            }
            for object in context.deletedObjects {
                sink.row([.text("deleted"), .text(object.objectID.description), .null])
            }
        }
    }
}
