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

/// Loads seed records into a store as objects of one entity, typed by the model and
/// validated, in one transaction: every record is saved, or (at the first bad one) none.
///
/// Relationships are given by their destinations' natural keys (``NaturalKeys``); an object
/// whose own natural key is already in the store (or earlier in the file) is refused, so a
/// file is never loaded twice by mistake.
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

    /// Inserts one object per record and saves them all; returns how many. The error names
    /// the file, the line and the property; nothing of the file is kept then.
    @discardableResult
    public func load(_ records: [SeedRecord], entity: String, file: String, progress: (Int) -> Void = { _ in }) throws -> Int {
        guard !context.hasChanges else { throw SeedError("\(file): the store has unsaved changes; save or rollback before importing") }
        let mapping = try context.store.mapping(for: entity)
        let index = NaturalKeyIndex(context: context, keys: keys)
        var lines: [ObjectIdentifier: Int] = [:]
        do {
            for (number, record) in records.enumerated() {
                let object = try insert(record, mapping: mapping, index: index, file: file)
                lines[ObjectIdentifier(object)] = record.line
                if number % 1000 == 999 { progress(number + 1) }
            }
            do {
                try context.save()
            } catch let failure as any ValidationErrorReporting {
                let first = failure.validationErrors.first
                let line = first.flatMap { error in
                    context.insertedObjects.first { $0.objectID == error.objectID }.flatMap { lines[ObjectIdentifier($0)] }
                }
                throw SeedError("\(file):\(line.map(String.init) ?? "?"): \(first.map { "\($0.key ?? "")" } ?? ""): \(failure)")
            }
        } catch {
            context.rollback()
            throw error
        }
        progress(records.count)
        return records.count
    }

    private func insert(_ record: SeedRecord, mapping: EntityMapping, index: NaturalKeyIndex, file: String) throws -> ManagedObject {
        func fail(_ property: String, _ why: String) -> SeedError { SeedError("\(file):\(record.line): \(mapping.name).\(property): \(why)") }
        let object = try insertObject(record, mapping: mapping, fail: fail)
        for (name, field) in record.fields where name != NaturalKeyIndex.objectIDColumn {
            if let attribute = mapping.attribute(named: name)?.attribute {
                let value: AttributeValue?
                do {
                    value = try SeedValueText.value(of: field, as: attribute)
                } catch {
                    throw fail(name, "\"\(error.text)\" is not \(error.expected)")
                }
                try object.setValue(value, forKey: name)
            } else if let relationship = mapping.relationship(named: name)?.relationship {
                let destination = relationship.destination
                func find(_ key: String) throws -> ManagedObject {
                    guard let found = try index.object(of: destination, key: key) else {
                        throw fail(name, "no \(destination) with \(keys.text(of: destination) ?? "key") \"\(key)\"")
                    }
                    return found
                }
                switch (field, relationship.isToMany) {
                case (.null, false): try object.setObject(nil, forKey: name)
                case (.null, true): try object.setObjects([], forKey: name)
                case (.text(let key), false): try object.setObject(try find(key), forKey: name)
                case (.keys(let list), true): try object.setObjects(try list.map(find), forKey: name)
                case (.text(let key), true): try object.setObjects([try find(key)], forKey: name)
                case (.keys, false): throw fail(name, "is a to-one relationship; give one key, not a list")
                }
            } else {
                let known = context.store.model.attributes(of: mapping.name).map(\.name) + context.store.model.relationships(of: mapping.name).map(\.name)
                throw fail(name, "no such attribute or relationship; \(mapping.name) has \(known.joined(separator: ", "))")
            }
        }
        do {
            try object.validateForInsert()
        } catch let failure as any ValidationErrorReporting {
            let first = failure.validationErrors.first
            throw fail(first?.key ?? "?", "\(first.map { "\($0)" } ?? "\(failure)")")
        }
        if let keyName = keys.text(of: mapping.name), let key = try index.keyText(of: object) {
            if let other = try index.object(of: mapping.name, key: key), other !== object {
                throw fail(keyName, "\"\(key)\" is already \(other.isInserted ? "earlier in the file" : "in the store")")
            }
            try index.add(object)
        } else if index.objectIDText(of: object) != nil {
            try index.add(object)
        }
        return object
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
