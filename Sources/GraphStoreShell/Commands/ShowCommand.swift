import GraphStore

/// `show ENTITY/PK[.rel…]` (or an object-ID URI): one object with its attributes and
/// relationships, or the objects a relationship path leads to.
enum ShowCommand {
    static let objectPath = Placeholder("ENTITY/PK[.RELATIONSHIP…]", .object)
    static let uri = Placeholder("URI")

    static let command = ShellCommand(
        "show", arguments: [.oneOf([[.value(objectPath)], [.value(uri)]])],
        summary: "print one object's attributes and relationships; follow relationships with .name",
        example: "show Book/1.category"
    ) { shell, arguments in
        guard let word = arguments[objectPath] ?? arguments[uri] else { throw arguments.usageError }
        let context = try shell.requireContext()
        let (start, path) = try resolve(word, shell: shell, context: context)
        var current: [ManagedObject] = [start]
        var single = true
        for (step, key) in path.enumerated() {
            guard single, let object = current.first else {
                throw ShellError("cannot follow \(key): \(path[step - 1]) is a to-many relationship")
            }
            if let relationship = object.mapping.relationship(named: key)?.relationship {
                if relationship.isToMany {
                    current = try object.objects(forKey: key)
                    single = false
                } else {
                    guard let next = try object.object(forKey: key) else {
                        shell.output("\(label(object)).\(key) is empty\n")
                        return
                    }
                    current = [next]
                }
            } else if object.mapping.attribute(named: key) != nil {
                guard step == path.count - 1 else { throw ShellError("\(key) is an attribute; there is nothing to follow after it") }
                shell.emit(columns: ["object", key]) { sink in
                    sink.row([.text(label(object)), (try? shell.attributeCell(object, key: key)) ?? .null])
                }
                return
            } else {
                throw ShellError("\(object.entity.name) has no attribute or relationship named \(key)" + Suggestion.didYouMean(key, among: shell.keyNames(of: object.mapping)))
            }
        }
        if single, let object = current.first {
            try printObject(object, shell: shell)
        } else {
            try printList(current, shell: shell)
        }
    }

    /// `Book/4` or an `x-coredata://` URI, then the relationship path.
    static func resolve(_ text: String, shell: Shell, context: ManagedObjectContext) throws -> (ManagedObject, [String]) {
        var parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var head = parts.removeFirst()
        if head.hasPrefix("x-coredata://") {
            return (try context.existingObject(uri: head), parts)
        }
        guard let slash = head.lastIndex(of: "/") else {
            throw ShellError("\(text): expected ENTITY/PK, like Book/1")
        }
        let entity = try shell.mapping(String(head[..<slash])).name
        head = String(head[head.index(after: slash)...])
        if head.hasPrefix("p") { head.removeFirst() }
        guard let key = Int64(head) else { throw ShellError("\(text): \(head) is not a primary key (a whole number)") }
        do {
            return (try context.existingObject(entity: entity, primaryKey: key), parts)
        } catch {
            throw ShellError("no \(entity) with Z_PK \(key)")
        }
    }

    static func label(_ object: ManagedObject) -> String {
        "\(object.entity.name)/\(object.objectID.primaryKey.map(String.init) ?? "new")"
    }

    private static func printObject(_ object: ManagedObject, shell: Shell) throws {
        try shell.emit(columns: ["property", "kind", "value"]) { sink in
            sink.row([.text("objectID"), .text("id"), .text(object.objectID.uriRepresentation)])
            for a in object.mapping.attributes {
                sink.row([.text(a.attribute.name), .text(a.attribute.type.xcodeName), try shell.attributeCell(object, key: a.attribute.name)])
            }
            for r in object.mapping.relationships {
                let name = r.relationship.name
                if r.relationship.isToMany {
                    let members = try object.objectIDs(forKey: name)
                    let shown = members.prefix(20).map { "\($0.entityName)/\($0.primaryKey.map(String.init) ?? "new")" }
                    let more = members.count > 20 ? ", …" : ""
                    sink.row([.text(name), .text("to-many"), .text("\(members.count)" + (members.isEmpty ? "" : ": " + shown.joined(separator: ", ") + more))])
                } else if let id = try object.objectID(forKey: name) {
                    var text = "\(id.entityName)/\(id.primaryKey.map(String.init) ?? "new")"
                    if (try? object.object(forKey: name)?.fireFault()) == nil { text += " (dangling: no such row)" }
                    sink.row([.text(name), .text("to-one"), .text(text)])
                } else {
                    sink.row([.text(name), .text("to-one"), .null])
                }
            }
        }
    }

    private static func printList(_ objects: [ManagedObject], shell: Shell) throws {
        let attributes = objects.first?.mapping.attributes.map(\.attribute.name) ?? []
        try shell.emit(columns: ["object"] + attributes) { sink in
            for object in objects {
                var cells: [Cell] = [.text(label(object))]
                for name in attributes {
                    cells.append(object.mapping.attribute(named: name) == nil ? .null : try shell.attributeCell(object, key: name))
                }
                sink.row(cells)
            }
        }
    }
}
