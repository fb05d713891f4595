import GraphStore

/// `show ENTITY/PK[.rel…] [--depth N]` (or an object-ID URI): one object with its attributes
/// and relationships, or the objects a relationship path leads to; with `--depth N`, the
/// objects its relationships reach in up to N steps too, each under its ID.
enum ShowCommand {
    static let objectPath = Placeholder("ENTITY/PK[.RELATIONSHIP…]", .object)
    static let uri = Placeholder("URI")
    static let depth = Placeholder("N", .wholeNumber(from: 1))

    static let command = ShellCommand(
        "show", arguments: [.oneOf([[.value(objectPath)], [.value(uri)]]), .option("--depth", depth)],
        summary: "print one object's attributes and relationships; follow relationships with .name, or N steps of them with --depth N",
        example: "show Book/p1.category"
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
        if let steps = arguments.value(of: "--depth") {
            guard let steps = Int(steps), steps >= 1 else { throw ShellError("show: --depth takes a whole number from 1, not \(steps)") }
            try printReached(from: current, depth: steps, shell: shell)
        } else if single, let object = current.first {
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
        object.objectID.description
    }

    private static func printObject(_ object: ManagedObject, shell: Shell) throws {
        try shell.emit(columns: ["property", "kind", "value"]) { sink in
            for row in try properties(of: object, shell: shell) { sink.row(Array(row.dropFirst())) }
        }
    }

    /// One row per property: the object's ID, its URI, its attributes, its relationships
    /// (destinations by ID, as they can be typed back; their kind as `.schema` names it:
    /// to-one, to-many, ordered to-many).
    private static func properties(of object: ManagedObject, shell: Shell) throws -> [[Cell]] {
        let id = Cell.text(object.objectID.description)
        var rows: [[Cell]] = [[id, .text("objectID"), .text("id"), id], [id, .text("uri"), .text("id"), .text(object.objectID.uriRepresentation)]]
        for a in object.mapping.attributes {
            rows.append([id, .text(a.attribute.name), .text(a.attribute.type.xcodeName), try shell.attributeCell(object, key: a.attribute.name)])
        }
        for r in object.mapping.relationships {
            let name = r.relationship.name
            if r.relationship.isToMany {
                let members = try object.objectIDs(forKey: name)
                let shown = members.prefix(20).map(\.description)
                let more = members.count > 20 ? ", …" : ""
                rows.append([id, .text(name), .text(SchemaCommand.kind(of: r.relationship)), .text("\(members.count)" + (members.isEmpty ? "" : ": " + shown.joined(separator: ", ") + more))])
            } else if let destination = try object.objectID(forKey: name) {
                var text = destination.description
                if (try? object.object(forKey: name)?.fireFault()) == nil { text += " (dangling: no such row)" }
                rows.append([id, .text(name), .text("to-one"), .text(text)])
            } else {
                rows.append([id, .text(name), .text("to-one"), .null])
            }
        }
        return rows
    }

    /// `--depth N`: the objects, then those their relationships reach, breadth first, up to
    /// N steps away, each once, in one result (an `object` column says whose property).
    private static func printReached(from start: [ManagedObject], depth: Int, shell: Shell) throws {
        var seen = Set(start.map(\.objectID))
        var level = start
        var ordered = start
        for _ in 0..<depth {
            var next: [ManagedObject] = []
            for object in level {
                for r in object.mapping.relationships {
                    let reached = r.relationship.isToMany
                        ? try object.objects(forKey: r.relationship.name) : [try? object.object(forKey: r.relationship.name)].compactMap { $0 }
                    for destination in reached where (try? destination.fireFault()) != nil && seen.insert(destination.objectID).inserted {
                        next.append(destination)
                    }
                }
            }
            ordered += next
            level = next
        }
        try shell.emit(columns: ["object", "property", "kind", "value"]) { sink in
            for object in ordered {
                for row in try properties(of: object, shell: shell) { sink.row(row) }
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
