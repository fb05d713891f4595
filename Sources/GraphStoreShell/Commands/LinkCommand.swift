import GraphStore

/// `link ENTITY/PK.rel ENTITY/PK` and `unlink …`: relationship changes, with inverses
/// kept in step by the library.
enum LinkCommand {
    static let sourceKey = Placeholder("ENTITY/KEY.relationship", .object)
    static let destinationObject = Placeholder("ENTITY/KEY", .object)

    static let link = ShellCommand(
        "link", arguments: [.value(sourceKey), .value(destinationObject)],
        summary: "set a to-one or add to a to-many relationship (the inverse follows)",
        example: "link Item/p1.unit Unit/p2", writes: true
    ) { shell, arguments in
        let (source, key, destination) = try operands(shell, arguments)
        do {
            if source.mapping.relationship(named: key)?.relationship.isToMany == true {
                try source.add(destination, toKey: key)
            } else {
                try source.setObject(destination, forKey: key)
            }
        } catch {
            throw ShellError("\(error)")
        }
        shell.output("linked \(source.objectID).\(key) → \(destination.objectID)\n")
    }

    static let unlink = ShellCommand(
        "unlink", arguments: [.value(sourceKey), .value(destinationObject)],
        summary: "clear a to-one or remove from a to-many relationship (the inverse follows)",
        example: "unlink Item/p1.unit Unit/p2", writes: true
    ) { shell, arguments in
        let (source, key, destination) = try operands(shell, arguments)
        do {
            if source.mapping.relationship(named: key)?.relationship.isToMany == true {
                guard try source.objects(forKey: key).contains(where: { $0 === destination }) else {
                    throw ShellError("\(source.objectID).\(key) does not hold \(destination.objectID)")
                }
                try source.remove(destination, fromKey: key)
            } else {
                guard try source.object(forKey: key) === destination else {
                    throw ShellError("\(source.objectID).\(key) does not point at \(destination.objectID)")
                }
                try source.setObject(nil, forKey: key)
            }
        } catch let error as ShellError {
            throw error
        } catch {
            throw ShellError("\(error)")
        }
        shell.output("unlinked \(source.objectID).\(key) ↛ \(destination.objectID)\n")
    }

    private static func operands(_ shell: Shell, _ arguments: ParsedArguments) throws -> (ManagedObject, String, ManagedObject) {
        let reference = try ObjectReference(try arguments.word(sourceKey), wantsKey: true)
        let source = try reference.resolve(in: shell)
        let key = reference.key ?? ""
        guard source.mapping.relationship(named: key) != nil else {
            let known = source.mapping.relationships.map(\.relationship.name)
            let list = "; its relationships: \(known.isEmpty ? "none" : known.joined(separator: ", "))"
            throw ShellError("\(source.entity.name) has no relationship \(key)" + Suggestion.didYouMean(key, among: known, otherwise: list))
        }
        let destination = try ObjectReference(try arguments.word(destinationObject), wantsKey: false).resolve(in: shell)
        return (source, key, destination)
    }
}
