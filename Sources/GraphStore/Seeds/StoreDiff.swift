/// What changed between two stores of one model, object by object, matched by natural key
/// (``NaturalKeys``) — not by `Z_PK`, which two stores give the same object differently.
/// An entity without a key is matched by `Z_PK`, and ``warnings`` says so.
///
/// ```swift
/// let diff = try StoreDiff(old: oldContext, new: newContext, keys: keys)
/// for change in diff.changes { print(change.kind, change.entity, change.key) }
/// let script = diff.updateScript(header: "seed 1 → seed 2")
/// ```
public struct StoreDiff {
    /// One object added, removed or changed.
    public struct Change: Sendable {
        /// What happened to the object.
        public enum Kind: String, Sendable {
            case added, removed, changed
        }

        /// What happened.
        public var kind: Kind
        /// The object's entity (its own, not an ancestor).
        public var entity: String
        /// Its natural key's text (or `p` and its `Z_PK`).
        public var key: String
        /// The properties that differ (for an added object: every property it has; for a
        /// removed one: none), with the old and new values.
        public var properties: [(name: String, old: SeedRecord.Field, new: SeedRecord.Field)]
    }

    /// The changes, entity by entity (in the model's order), then by key.
    public private(set) var changes: [Change] = []
    /// Entities matched by `Z_PK` for want of a natural key: unsafe between stores built apart.
    public private(set) var warnings: [String] = []
    /// The keys objects were matched by.
    public let keys: NaturalKeys
    private var relationshipKinds: [String: [String: RelationshipDescription]] = [:]

    /// Compares the objects of two contexts (normally on two stores of the same model).
    public init(old: ManagedObjectContext, new: ManagedObjectContext, keys: NaturalKeys) throws {
        self.keys = keys
        let model = new.store.model
        for entity in model.entitiesInNumberingOrder where !entity.isAbstract {
            let (_, before) = try SeedExporter(context: old, keys: keys).snapshot(of: entity.name, exactEntity: true)
            let (_, after) = try SeedExporter(context: new, keys: keys).snapshot(of: entity.name, exactEntity: true)
            if keys.attribute(of: entity.name) == nil, !(before.isEmpty && after.isEmpty) {
                warnings.append("\(entity.name) has no natural key: matched by Z_PK, which two stores built apart give different objects (give --key \(entity.name)=ATTRIBUTE)")
            }
            var relationships: [String: RelationshipDescription] = [:]
            for relationship in model.relationships(of: entity.name) { relationships[relationship.name] = relationship }
            relationshipKinds[entity.name] = relationships
            let oldByKey = Dictionary(before.map { ($0.identity, $0.record) }, uniquingKeysWith: { first, _ in first })
            let newByKey = Dictionary(after.map { ($0.identity, $0.record) }, uniquingKeysWith: { first, _ in first })
            for (key, record) in after {
                guard let previous = oldByKey[key] else {
                    changes.append(Change(kind: .added, entity: entity.name, key: key, properties: record.fields.map { ($0.name, .null, $0.value) }))
                    continue
                }
                let was = Dictionary(previous.fields.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
                let differing = record.fields.compactMap { field -> (name: String, old: SeedRecord.Field, new: SeedRecord.Field)? in
                    let old = was[field.name] ?? .null
                    return old == field.value ? nil : (field.name, old, field.value)
                }
                if !differing.isEmpty { changes.append(Change(kind: .changed, entity: entity.name, key: key, properties: differing)) }
            }
            for (key, _) in before where newByKey[key] == nil {
                changes.append(Change(kind: .removed, entity: entity.name, key: key, properties: []))
            }
        }
    }

    /// The changes as a seed update (see ``SeedUpdate``): inserts first (attributes), then
    /// attribute changes, then links and unlinks (so destinations exist), then deletes. A
    /// to-many whose inverse is a to-one is left to that to-one, so that linking a seed
    /// object never takes a user's objects away from it.
    public func updateScript(header: String) -> String {
        var inserts: [String] = []
        var sets: [String] = []
        var links: [String] = []
        var deletes: [String] = []
        for change in changes {
            guard let keyAttribute = keys.attribute(of: change.entity) else { continue }
            let relationships = relationshipKinds[change.entity] ?? [:]
            let keyField = SeedUpdate.Step.json(change.key)
            var values: [String] = []
            var linked: [(String, SeedRecord.Field)] = []
            var unlinked: [(String, SeedRecord.Field)] = []
            for property in change.properties where property.name != keyAttribute {
                guard let relationship = relationships[property.name] else {
                    values.append("\(SeedUpdate.Step.json(property.name)): \(SeedUpdate.Step.json(property.new))")
                    continue
                }
                if relationship.isToMany, let inverse = relationship.inverse,
                    relationshipKinds[relationship.destination]?[inverse].map({ !$0.isToMany }) ?? false
                {
                    continue
                }
                switch (property.old, property.new) {
                case (.keys(let old), .keys(let new)):
                    let added = new.filter { !old.contains($0) }
                    let removed = old.filter { !new.contains($0) }
                    if !added.isEmpty { linked.append((property.name, .keys(added))) }
                    if !removed.isEmpty { unlinked.append((property.name, .keys(removed))) }
                case (.null, .keys(let new)) where !new.isEmpty: linked.append((property.name, .keys(new)))
                case (_, .text(let key)): linked.append((property.name, .text(key)))
                case (.text(let key), .null): unlinked.append((property.name, .text(key)))
                default: continue
                }
            }
            let keyPair = "\(SeedUpdate.Step.json(keyAttribute)): \(keyField)"
            func line(_ verb: String, _ pairs: [String]) -> String { "\(verb) \(change.entity) {" + ([keyPair] + pairs).joined(separator: ", ") + "}" }
            func pairs(_ list: [(String, SeedRecord.Field)]) -> [String] { list.map { "\(SeedUpdate.Step.json($0.0)): \(SeedUpdate.Step.json($0.1))" } }
            switch change.kind {
            case .added: inserts.append(line("insert", values))
            case .changed: if !values.isEmpty { sets.append(line("set", values)) }
            case .removed: deletes.append(line("delete", []))
            }
            if !linked.isEmpty { links.append(line("link", pairs(linked))) }
            if !unlinked.isEmpty { links.append(line("unlink", pairs(unlinked))) }
        }
        let keyList = keys.byEntity.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        var text = "# graphstore seed update: \(header)\n# keys: \(keyList)\n"
        for warning in warnings { text += "# warning: \(warning)\n" }
        for line in inserts + sets + links + deletes { text += line + "\n" }
        return text
    }
}
