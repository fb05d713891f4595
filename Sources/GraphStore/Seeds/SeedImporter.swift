/// One object of a seed file: its line in the file and its fields by property name.
public struct SeedRecord: Sendable {
    /// A field's value as the file gave it.
    public enum Field: Sendable, Hashable {
        /// No value (an empty CSV cell, JSON null).
        case null
        /// A value as text: an attribute's value, or a to-one's destination key.
        case text(String)
        /// A to-many relationship's destination keys, in order.
        case keys([String])
    }

    /// The record's line in its file (1 for the first line).
    public var line: Int
    /// The fields, in the file's order.
    public var fields: [(name: String, value: Field)]

    /// A record.
    public init(line: Int, fields: [(name: String, value: Field)]) {
        self.line = line
        self.fields = fields
    }
}

/// One seed file's records, every one an object of one entity: what ``SeedImporter`` loads.
public struct SeedLoad: Sendable {
    /// The entity the records are objects of.
    public var entity: String
    /// The file's name, as errors show it.
    public var file: String
    /// The records, in the file's order.
    public var records: [SeedRecord]

    /// A file's records.
    public init(entity: String, file: String, records: [SeedRecord]) {
        self.entity = entity
        self.file = file
        self.records = records
    }
}

/// Loads seed records into a store as objects, typed by the model and validated, in one
/// transaction: every record is saved, or (at the first bad one) none.
///
/// Relationships are given by their destinations' natural keys (``NaturalKeys``); an object
/// whose own natural key is already in the store (or earlier in the files loaded with it) is refused, so a
/// file is never loaded twice by mistake. Every object of every file is inserted before any
/// relationship is set, so files may name each other's objects in any order, cycles
/// included (a category naming its parent in the same file, two entities naming each other).
///
/// ```swift
/// let importer = SeedImporter(context: context, keys: keys)
/// let count = try importer.load(records, entity: "Book", file: "books.csv")   // 3
/// ```
public struct SeedImporter {
    /// The context objects are inserted into (it must have no unsaved changes).
    public let context: ManagedObjectContext
    /// The natural keys relationships are matched by.
    public let keys: NaturalKeys

    /// An importer into a context.
    public init(context: ManagedObjectContext, keys: NaturalKeys) {
        self.context = context
        self.keys = keys
    }

    /// Inserts one object per record of one file and saves them all; returns how many. The
    /// error names the file, the line and the property; nothing of the file is kept then.
    @discardableResult
    public func load(_ records: [SeedRecord], entity: String, file: String, progress: (Int) -> Void = { _ in }) throws -> Int {
        try load([SeedLoad(entity: entity, file: file, records: records)], progress: progress)[0]
    }

    /// Inserts one object per record of every file and saves them all in one transaction;
    /// returns how many of each file. `progress` is told how many records are done.
    @discardableResult
    public func load(_ loads: [SeedLoad], progress: (Int) -> Void = { _ in }) throws -> [Int] {
        guard !context.hasChanges else {
            throw SeedError("\(loads.first?.file ?? "import"): the store has unsaved changes; save or rollback before importing")
        }
        let index = NaturalKeyIndex(context: context, keys: keys)
        var items: [Item] = []
        var files: [ObjectIdentifier: String] = [:]
        do {
            for load in loads {
                let mapping = try context.store.mapping(for: load.entity)
                let keyRelationships = keyRelationships(of: mapping.name)
                for record in load.records {
                    let item = try insert(record, mapping: mapping, file: load.file, keyRelationships: keyRelationships)
                    files[ObjectIdentifier(item.object)] = load.file
                    // An object whose key names a to-one waits for it (``setKeyRelationships``).
                    if keyRelationships.isEmpty {
                        try checkKey(of: item, index: index, files: files)
                    } else {
                        index.hold(item.object)
                    }
                    items.append(item)
                }
            }
            try setKeyRelationships(items, index: index, files: files)
            for item in items { try setRelationships(of: item, index: index, keyParts: false) }
            for (number, item) in items.enumerated() {
                try validate(item)
                if number % 1000 == 999 { progress(number + 1) }
            }
            try save(items)
        } catch {
            context.rollback()
            throw error
        }
        progress(items.count)
        return loads.map(\.records.count)
    }

    /// A record being loaded: its object, and where it came from.
    private struct Item {
        var object: ManagedObject
        var record: SeedRecord
        var mapping: EntityMapping
        var file: String
        /// The to-ones the entity's key names (``keyRelationships(of:)``), worked out once a file.
        var keyRelationships: [String]

        func fail(_ property: String, _ why: String) -> SeedError {
            Self.failure(file, record, mapping.name, property, why)
        }

        /// The error for a record's property: `file:line: Entity.property: why`.
        static func failure(_ file: String, _ record: SeedRecord, _ entity: String, _ property: String, _ why: String) -> SeedError {
            SeedError("\(file):\(record.line): \(entity).\(property): \(why)")
        }
    }

    /// The first pass: a new object for the record, with its attributes.
    private func insert(_ record: SeedRecord, mapping: EntityMapping, file: String, keyRelationships: [String]) throws -> Item {
        func fail(_ property: String, _ why: String) -> SeedError { Item.failure(file, record, mapping.name, property, why) }
        let object = try insertObject(record, mapping: mapping, fail: fail)
        let item = Item(object: object, record: record, mapping: mapping, file: file, keyRelationships: keyRelationships)
        for (name, field) in record.fields where name != NaturalKeyIndex.objectIDColumn {
            if let attribute = mapping.attribute(named: name)?.attribute {
                let value: AttributeValue?
                do {
                    value = try SeedValueText.value(of: field, as: attribute)
                } catch {
                    throw fail(name, "\"\(error.text)\" is not \(error.expected)")
                }
                try item.object.setValue(value, forKey: name)
            } else if mapping.relationship(named: name) == nil {
                let model = context.store.model
                let known = model.attributes(of: mapping.name).map(\.name) + model.relationships(of: mapping.name).map(\.name)
                throw fail(name, "no such attribute or relationship; \(mapping.name) has \(known.joined(separator: ", "))")
            }
        }
        return item
    }

    /// The to-ones an entity's key names.
    private func keyRelationships(of entity: String) -> [String] {
        (keys.parts(of: entity) ?? []).filter { context.store.model.relationship($0, of: entity) != nil }
    }

    /// The second pass: the to-ones each held object's key names, in rounds, since a key's
    /// destination may itself wait for its own key's to-ones; then the key is checked. The
    /// rounds are as many as the longest chain of keys through to-ones, which a key's text
    /// bounds at 32 (``NaturalKeyIndex``), so every object is tried at most 33 times.
    private func setKeyRelationships(_ items: [Item], index: NaturalKeyIndex, files: [ObjectIdentifier: String]) throws {
        var waiting = items.filter { !$0.keyRelationships.isEmpty }
        while !waiting.isEmpty {
            var still: [Item] = []
            for item in waiting {
                if try setRelationships(of: item, index: index, keyParts: true, waitingIsAllowed: true) {
                    try checkKey(of: item, index: index, files: files)
                } else {
                    still.append(item)
                }
            }
            if still.count == waiting.count {
                // No key could be completed: the first one names a destination that is not there.
                try setRelationships(of: still[0], index: index, keyParts: true)
            }
            waiting = still
        }
    }

    /// Sets the record's relationships that are key parts (`keyParts`) or the others.
    /// Returns false, when `waitingIsAllowed`, if a destination is not (yet) found; else
    /// that is an error naming it.
    @discardableResult
    private func setRelationships(of item: Item, index: NaturalKeyIndex, keyParts: Bool, waitingIsAllowed: Bool = false) throws -> Bool {
        for (name, field) in item.record.fields where item.keyRelationships.contains(name) == keyParts {
            guard let relationship = item.mapping.relationship(named: name)?.relationship else { continue }
            let destination = relationship.destination
            var missing = false
            func find(_ key: String) throws -> ManagedObject? {
                if let found = try index.object(of: destination, key: key) { return found }
                if waitingIsAllowed {
                    missing = true
                    return nil
                }
                throw item.fail(name, "no \(destination) with \(keys.text(of: destination) ?? "key") \"\(key)\"")
            }
            let object = item.object
            switch (field, relationship.isToMany) {
            case (.null, false): try object.setObject(nil, forKey: name)
            case (.null, true): try object.setObjects([], forKey: name)
            case (.text(let key), false):
                let found = try find(key)
                if missing { return false }
                try object.setObject(found, forKey: name)
            case (.keys(let list), true):
                let found = try list.compactMap(find)
                if missing { return false }
                try object.setObjects(found, forKey: name)
            case (.text(let key), true):
                let found = try find(key)
                if missing { return false }
                try object.setObjects(found.map { [$0] } ?? [], forKey: name)
            case (.keys, false): throw item.fail(name, "is a to-one relationship; give one key, not a list")
            }
        }
        return true
    }

    /// Refuses an object whose natural key another object already has (saved, or loaded from
    /// one of `files`), else indexes it.
    private func checkKey(of item: Item, index: NaturalKeyIndex, files: [ObjectIdentifier: String]) throws {
        let object = item.object
        if let keyName = keys.text(of: item.mapping.name), let key = try index.keyText(of: object) {
            if let other = try index.object(of: item.mapping.name, key: key), other !== object {
                let place = switch files[ObjectIdentifier(other)] {
                case item.file?: "earlier in the file"
                case let file?: "in \(file)"
                case nil: "in the store"
                }
                throw item.fail(keyName, "\"\(key)\" is already \(place)")
            }
            try index.add(object)
        } else if index.objectIDText(of: object) != nil {
            try index.add(object)
        }
    }

    /// The last pass: each object validated as it would be inserted, named by its line.
    private func validate(_ item: Item) throws {
        do {
            try item.object.validateForInsert()
        } catch let failure as any ValidationErrorReporting {
            let first = failure.validationErrors.first
            throw item.fail(first?.key ?? "?", "\(first.map { "\($0)" } ?? "\(failure)")")
        }
    }

    /// Saves, naming the file and line of the object a save's validation refuses.
    private func save(_ items: [Item]) throws {
        do {
            try context.save()
        } catch let failure as any ValidationErrorReporting {
            let first = failure.validationErrors.first
            let item = first.flatMap { error in items.first { $0.object.objectID == error.objectID } }
            let place = item.map { "\($0.file):\($0.record.line)" } ?? "?"
            throw SeedError("\(place): \(first.map { "\($0.key ?? "")" } ?? ""): \(failure)")
        }
    }

    /// A new object for a record: with the object ID's number its `@id` field gives, when the
    /// keys keep object IDs (``NaturalKeys/keepsObjectIDs``).
    private func insertObject(_ record: SeedRecord, mapping: EntityMapping, fail: (String, String) -> SeedError) throws -> ManagedObject {
        let column = NaturalKeyIndex.objectIDColumn
        guard let field = record.fields.first(where: { $0.name == column })?.value else { return try context.insert(mapping.name) }
        guard keys.keepsObjectIDs else { throw fail(column, "holds object IDs written by export --ids; import with --ids to keep them") }
        guard keys.parts(of: mapping.name) == nil else {
            throw fail(column, "\(mapping.name) has a natural key (\(keys.text(of: mapping.name) ?? "")), which names its objects instead")
        }
        guard case .text(let text) = field, text.hasPrefix("p"), let key = Int64(text.dropFirst()), key >= 1 else {
            throw fail(column, "expected an object ID's number such as p3, not \(field)")
        }
        do {
            return try context.insert(mapping.name, primaryKey: key)
        } catch let error as StoreError {
            throw fail(column, "\(error)")
        }
    }
}
