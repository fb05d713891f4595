/// The objects of an entity as seed records: every stored attribute, and each relationship
/// whose destination has a natural key, as that key (a to-many as the list of keys, in its
/// order when it is ordered, else sorted). What ``SeedImporter`` loads back.
///
/// ```swift
/// let (columns, records) = try SeedExporter(context: context, keys: keys).records(of: "Book")
/// try SeedFile.write(records, columns: columns, to: "books.csv")
/// ```
public struct SeedExporter {
    /// The context read.
    public let context: ManagedObjectContext
    /// The natural keys relationships are written as.
    public let keys: NaturalKeys

    /// An exporter of a context's objects.
    public init(context: ManagedObjectContext, keys: NaturalKeys) {
        self.context = context
        self.keys = keys
    }

    /// The columns written for an entity, and one record per object (the entity's own and
    /// its sub-entities'), ordered by natural key when it has one, else as stored. A
    /// relationship whose destination has no natural key cannot be written: it is left out,
    /// and ``leftOut(of:)`` names it.
    public func records(of entity: String) throws -> (columns: [String], records: [SeedRecord]) {
        let snapshot = try snapshot(of: entity, exactEntity: false, namingUnkeyed: keys.keepsObjectIDs)
        return (snapshot.columns, snapshot.objects.map(\.record))
    }

    /// The relationships of an entity that ``records(of:)`` leaves out, each with why: their
    /// destination has no natural key to name its objects by.
    public func leftOut(of entity: String) -> [(relationship: String, reason: String)] {
        guard !keys.keepsObjectIDs else { return [] }
        return context.store.model.relationships(of: entity).filter { !$0.isTransient && keys.parts(of: $0.destination) == nil }.map {
            ($0.name, "\($0.destination) has no natural key to name its objects by (give --key \($0.destination)=ATTRIBUTE, or --ids to name them by object ID)")
        }
    }

    /// One object as a snapshot holds it.
    struct Snapshot {
        /// What names it: its natural key's text, or `p` and its `Z_PK`.
        var identity: String
        /// Whether ``identity`` is its natural key (false: its entity has none, or it is nil).
        var isNamed: Bool
        var record: SeedRecord
    }

    /// The columns, and each object as a record with what names it: its natural key's text,
    /// or `p` and its `Z_PK` when its entity has no key (or the key is nil). With
    /// `namingUnkeyed`, relationships whose destination has no key are kept too, their
    /// objects named by `p` and `Z_PK` (what a diff compares); without, they are left out.
    func snapshot(of entity: String, exactEntity: Bool, namingUnkeyed: Bool) throws -> (columns: [String], objects: [Snapshot]) {
        let model = context.store.model
        let attributes = model.attributes(of: entity).filter { !$0.isTransient }.map(\.name)
        let relationships = model.relationships(of: entity).filter { !$0.isTransient && (namingUnkeyed || keys.parts(of: $0.destination) != nil) }
        let index = NaturalKeyIndex(context: context, keys: keys)
        func identity(_ object: ManagedObject) throws -> String {
            try index.keyText(of: object) ?? "p\(object.objectID.primaryKey.map(String.init) ?? "?")"
        }
        // Objects of an entity without a key carry their object ID when keys keep them.
        let writesObjectID = keys.keepsObjectIDs && keys.parts(of: entity) == nil
        var objects: [Snapshot] = []
        for (number, object) in try context.fetch(entity, exactEntity: exactEntity).enumerated() {
            var fields: [(name: String, value: SeedRecord.Field)] = []
            if writesObjectID {
                guard let key = object.objectID.primaryKey else {
                    throw SeedError("\(object.objectID) is not saved yet, so it has no object ID to write; save first")
                }
                fields.append((NaturalKeyIndex.objectIDColumn, .text("p\(key)")))
            }
            for name in attributes {
                fields.append((name, try object.value(forKey: name).map { .text(SeedValueText.format($0)) } ?? .null))
            }
            for relationship in relationships {
                if relationship.isToMany {
                    var list = try object.objects(forKey: relationship.name).map(identity)
                    if !relationship.isOrdered { list.sort() }
                    fields.append((relationship.name, .keys(list)))
                } else {
                    let key = try object.object(forKey: relationship.name).map(identity)
                    fields.append((relationship.name, key.map(SeedRecord.Field.text) ?? .null))
                }
            }
            let key = try index.keyText(of: object)
            objects.append(Snapshot(identity: key ?? "p\(object.objectID.primaryKey ?? Int64(number))", isNamed: key != nil, record: SeedRecord(line: number + 2, fields: fields)))
        }
        objects.sort { $0.identity < $1.identity }
        return ((writesObjectID ? [NaturalKeyIndex.objectIDColumn] : []) + attributes + relationships.map(\.name), objects)
    }
}
