import GraphStore

/// `set ENTITY/PK key=value …`: changes attributes of an object (saved by `save`).
enum SetCommand {
    static let target = Placeholder("ENTITY/KEY", .object)

    static let command = ShellCommand(
        "set", arguments: [.value(target), .repeated([.value(InsertCommand.assignment)])],
        summary: "change attributes of a stored (Book/p4) or unsaved (Book/t1) object; values typed by attribute",
        example: "set Book/p4 price=12.5 title=\"Dune Messiah\"", writes: true
    ) { shell, arguments in
        let object = try ObjectReference(try arguments.word(target), wantsKey: false).resolve(in: shell)
        let assignments = try Assignment.parse(arguments.text(from: InsertCommand.assignment) ?? "")
        try apply(assignments, to: object)
        shell.output("updated \(object.objectID): \(assignments.map(\.key).joined(separator: ", "))\n")
    }

    /// Parses every value first, so a mistyped one leaves the object untouched.
    static func apply(_ assignments: [Assignment], to object: ManagedObject) throws {
        let entity = object.entity.name
        var values: [(String, AttributeValue?)] = []
        for assignment in assignments {
            guard let attribute = object.mapping.attribute(named: assignment.key)?.attribute else {
                if object.mapping.relationship(named: assignment.key) != nil {
                    throw ShellError("\(entity).\(assignment.key) is a relationship; use link/unlink")
                }
                let known = object.mapping.attributes.map(\.attribute.name)
                throw ShellError(
                    "\(entity) has no attribute \(assignment.key)"
                        + Suggestion.didYouMean(assignment.key, among: known, otherwise: "; its attributes: \(known.joined(separator: ", "))"))
            }
            values.append((attribute.name, try InlineValue.parse(assignment, as: attribute, entity: entity)))
        }
        do {
            for (key, value) in values { try object.setValue(value, forKey: key) }
        } catch {
            throw ShellError("\(error)")
        }
    }
}
