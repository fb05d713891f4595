import Foundation
import GraphStore

/// Stand-ins for the editing commands of the `validation` branch (`insert`, `set`,
/// `delete`, `link`, `unlink`, `save`, `rollback`), with the same syntax and result lines,
/// so that the undo scripts run before that branch lands. Delete this file when it does:
/// its commands then take these names (``Shell/add(_:)`` keeps the later of two).
enum StopgapEditCommands {
    static let all: [ShellCommand] = [insert, set, delete, link, unlink, save, rollback]

    static let insert = ShellCommand(
        "insert", usage: "insert ENTITY [key=value …]", summary: "insert an object; values typed by attribute (nil clears); prints its temporary ID",
        example: "insert Book title=\"Dune\" price=18.5", writes: true
    ) { shell, words, _ in
        guard let name = words.first else { throw ShellError("usage: insert ENTITY [key=value …]") }
        let mapping = try shell.mapping(name)
        let object = try wrapped { try shell.requireContext().insert(mapping.name) }
        try assign(Array(words.dropFirst()), to: object)
        shell.output("inserted \(object.objectID)\n")
    }

    static let set = ShellCommand(
        "set", usage: "set ENTITY/KEY key=value …", summary: "change attributes of a stored (Book/p4) or unsaved (Book/t1) object",
        example: "set Book/p4 price=12.5", writes: true
    ) { shell, words, _ in
        guard words.count >= 2 else { throw ShellError("usage: set ENTITY/KEY key=value …") }
        let object = try resolve(words[0], in: shell).object
        let keys = try assign(Array(words.dropFirst()), to: object)
        shell.output("updated \(object.objectID): \(keys.joined(separator: ", "))\n")
    }

    static let delete = ShellCommand(
        "delete", usage: "delete ENTITY/KEY", summary: "delete an object: nullify and cascade rules apply now", example: "delete Book/p2",
        writes: true
    ) { shell, words, _ in
        guard words.count == 1 else { throw ShellError("usage: delete ENTITY/KEY") }
        let object = try resolve(words[0], in: shell).object
        let context = try shell.requireContext()
        let before = Set((context.deletedObjects + context.insertedObjects).map(ObjectIdentifier.init))
        let pending = context.insertedObjects
        try wrapped { try context.delete(object) }
        let cascaded = (context.deletedObjects.filter { !before.contains(ObjectIdentifier($0)) } + pending.filter(\.isDeleted)).filter { $0 !== object }
        var line = "deleted \(object.objectID)"
        if !cascaded.isEmpty { line += "; cascade also deleted \(cascaded.map(\.objectID.description).joined(separator: ", "))" }
        shell.output(line + "\n")
    }

    static let link = ShellCommand(
        "link", usage: "link ENTITY/KEY.relationship ENTITY/KEY", summary: "set a to-one or add to a to-many relationship (the inverse follows)",
        example: "link Book/t1.category BookCategory/p1", writes: true
    ) { shell, words, _ in
        let (source, key, destination) = try operands(shell, words, usage: "link ENTITY/KEY.relationship ENTITY/KEY")
        try wrapped {
            if source.mapping.relationship(named: key)?.relationship.isToMany == true {
                try source.add(destination, toKey: key)
            } else {
                try source.setObject(destination, forKey: key)
            }
        }
        shell.output("linked \(source.objectID).\(key) → \(destination.objectID)\n")
    }

    static let unlink = ShellCommand(
        "unlink", usage: "unlink ENTITY/KEY.relationship ENTITY/KEY", summary: "clear a to-one or remove from a to-many relationship",
        example: "unlink Book/p1.category BookCategory/p1", writes: true
    ) { shell, words, _ in
        let (source, key, destination) = try operands(shell, words, usage: "unlink ENTITY/KEY.relationship ENTITY/KEY")
        try wrapped {
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
        }
        shell.output("unlinked \(source.objectID).\(key) ↛ \(destination.objectID)\n")
    }

    static let save = ShellCommand(
        "save", usage: "save", summary: "save every pending change in one transaction", example: "save", writes: true
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

    // MARK: - Helpers

    private static func summary(_ context: ManagedObjectContext) -> String {
        "\(context.insertedObjects.count) inserted, \(context.updatedObjects.count) updated, \(context.deletedObjects.count) deleted"
    }

    /// Library errors as shell errors (their message is the sentence).
    private static func wrapped<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ShellError {
            throw error
        } catch {
            throw ShellError("\(error)")
        }
    }

    /// `Book/p4`, `Book/t1`, optionally followed by `.key`.
    private static func resolve(_ text: String, in shell: Shell) throws -> (object: ManagedObject, key: String?) {
        guard let slash = text.firstIndex(of: "/") else { throw ShellError("\(text): expected ENTITY/KEY, like Book/p4 or Book/t1") }
        let mapping = try shell.mapping(String(text[..<slash]))
        var keyText = text[text.index(after: slash)...]
        var relationship: String?
        if let dot = keyText.firstIndex(of: ".") {
            relationship = String(keyText[keyText.index(after: dot)...])
            keyText = keyText[..<dot]
        }
        guard let kind = keyText.first, kind == "p" || kind == "t", let number = Int64(keyText.dropFirst()) else {
            throw ShellError("\(text): the key is p<Z_PK> for a stored object or t<N> for an unsaved one")
        }
        let context = try shell.requireContext()
        if kind == "p" {
            return (try wrapped { try context.existingObject(entity: mapping.name, primaryKey: number) }, relationship)
        }
        let wanted = "t\(number)"
        guard let object = context.insertedObjects.first(where: { $0.objectID.description.hasSuffix(" " + wanted) && mapping.numbersWithDescendants.contains($0.mapping.number) }) else {
            throw ShellError("\(text): no unsaved \(mapping.name) \(wanted) in this session")
        }
        return (object, relationship)
    }

    private static func operands(_ shell: Shell, _ words: [String], usage: String) throws -> (ManagedObject, String, ManagedObject) {
        guard words.count == 2 else { throw ShellError("usage: \(usage)") }
        let (source, key) = try resolve(words[0], in: shell)
        guard let key, source.mapping.relationship(named: key) != nil else {
            let known = source.mapping.relationships.map(\.relationship.name).joined(separator: ", ")
            throw ShellError("\(source.entity.name) has no relationship \(key ?? ""); its relationships: \(known.isEmpty ? "none" : known)")
        }
        return (source, key, try resolve(words[1], in: shell).object)
    }

    /// Parses every `key=value` first, so that a mistyped one leaves the object untouched.
    @discardableResult
    private static func assign(_ words: [String], to object: ManagedObject) throws -> [String] {
        var values: [(String, AttributeValue?)] = []
        for word in words {
            guard let equals = word.firstIndex(of: "=") else { throw ShellError("\(word): expected key=value") }
            let key = String(word[..<equals])
            let text = String(word[word.index(after: equals)...])
            guard let attribute = object.mapping.attribute(named: key)?.attribute else {
                if object.mapping.relationship(named: key) != nil {
                    throw ShellError("\(object.entity.name).\(key) is a relationship; use link/unlink")
                }
                throw ShellError("\(object.entity.name) has no attribute \(key); its attributes: \(object.mapping.attributes.map(\.attribute.name).joined(separator: ", "))")
            }
            values.append((attribute.name, try value(text, as: attribute.type, key: "\(object.entity.name).\(key)")))
        }
        try wrapped { for (key, value) in values { try object.setValue(value, forKey: key) } }
        return values.map(\.0)
    }

    private static func value(_ text: String, as type: AttributeType, key: String) throws -> AttributeValue? {
        if text == "nil" { return nil }
        let parsed: AttributeValue?
        switch type {
        case .string: parsed = .string(text)
        case .integer16, .integer32, .integer64: parsed = Int64(text).map(AttributeValue.integer)
        case .double, .float: parsed = Double(text).map(AttributeValue.double)
        case .decimal: parsed = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")).map(AttributeValue.decimal)
        case .boolean: parsed = ["true": true, "yes": true, "1": true, "false": false, "no": false, "0": false][text.lowercased()].map(AttributeValue.bool)
        case .date: parsed = (try? Date(text, strategy: .iso8601)).map(AttributeValue.date)
        case .uuid: parsed = UUID(uuidString: text).map(AttributeValue.uuid)
        case .uri: parsed = URL(string: text).map(AttributeValue.uri)
        default: parsed = nil
        }
        guard let parsed else { throw ShellError("\(key): \(text) is not a \(type.xcodeName) value") }
        return parsed
    }
}
