import GraphStore

/// `insert ENTITY key=value …`: a new object with typed values (saved by `save`).
enum InsertCommand {
    static let entity = Placeholder("ENTITY", .entity)
    static let assignment = Placeholder("key=value", .assignment)

    static let command = ShellCommand(
        "insert", arguments: [.value(entity), .optional([.repeated([.value(assignment)])])],
        summary: "insert an object; values typed by attribute (nil clears; quote text with spaces); prints its temporary ID",
        example: "insert Book title=\"Dune\" price=18.5 published=2020-01-01T00:00:00Z", writes: true
    ) { shell, arguments in
        let mapping = try shell.mapping(try arguments.word(entity))
        let assignments = try Assignment.parse(arguments.text(from: assignment) ?? "")
        let context = try shell.requireContext()
        let object: ManagedObject
        do {
            object = try context.insert(mapping.name)
        } catch {
            throw ShellError("\(error)")
        }
        do {
            try SetCommand.apply(assignments, to: object)
        } catch {
            // An insert whose values do not fit is not left half-made in the context.
            try? context.delete(object)
            throw error
        }
        shell.output("inserted \(object.objectID)\n")
    }
}
