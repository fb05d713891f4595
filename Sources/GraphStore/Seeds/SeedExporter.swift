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
    /// its sub-entities'), ordered by natural key when it has one, else as stored.
    public func records(of entity: String) throws -> (columns: [String], records: [SeedRecord]) {
        let (columns, objects) = try snapshot(of: entity, exactEntity: false)
        return (columns, objects.map(\.record))
    }

    /// The columns, and each object as a record with what names it: its natural key's text,
    /// or `p` and its `Z_PK` when its entity has no key (or the key is nil).
    func snapshot(of entity: String, exactEntity: Bool) throws -> (columns: [String], objects: [(identity: String, record: SeedRecord)]) {
        let model = context.store.model
        let attributes = model.attributes(of: entity).filter { !$0.isTransient }.map(\.name)
        let relationships = model.relationships(of: entity).filter { !$0.isTransient && keys.attribute(of: $0.destination) != nil }
        let index = NaturalKeyIndex(context: context, keys: keys)
        var objects: [(identity: String, record: SeedRecord)] = []
        for (number, object) in try context.fetch(entity, exactEntity: exactEntity).enumerated() {
            var fields: [(name: String, value: SeedRecord.Field)] = []
            for name in attributes {
                fields.append((name, try object.value(forKey: name).map { .text(SeedValueText.format($0)) } ?? .null))
            }
            for relationship in relationships {
                if relationship.isToMany {
                    var list = try object.objects(forKey: relationship.name).compactMap { try index.keyText(of: $0) }
                    if !relationship.isOrdered { list.sort() }
                    fields.append((relationship.name, .keys(list)))
                } else {
                    let key = try object.object(forKey: relationship.name).flatMap { try index.keyText(of: $0) }
                    fields.append((relationship.name, key.map(SeedRecord.Field.text) ?? .null))
                }
            }
            let identity = try index.keyText(of: object) ?? "p\(object.objectID.primaryKey ?? Int64(number))"
            objects.append((identity, SeedRecord(line: number + 2, fields: fields)))
        }
        objects.sort { $0.identity < $1.identity }
        return (attributes + relationships.map(\.name), objects)
    }
}
