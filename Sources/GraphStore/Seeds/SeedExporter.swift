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
        let model = context.store.model
        let attributes = model.attributes(of: entity).filter { !$0.isTransient }.map(\.name)
        let relationships = model.relationships(of: entity).filter { !$0.isTransient && keys.attribute(of: $0.destination) != nil }
        let index = NaturalKeyIndex(context: context, keys: keys)
        var records: [(sortKey: String, record: SeedRecord)] = []
        for (number, object) in try context.fetch(entity).enumerated() {
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
            let sortKey = try index.keyText(of: object) ?? String(format: "%020d", number)
            records.append((sortKey, SeedRecord(line: number + 2, fields: fields)))
        }
        records.sort { $0.sortKey < $1.sortKey }
        return (attributes + relationships.map(\.name), records.map(\.record))
    }
}
