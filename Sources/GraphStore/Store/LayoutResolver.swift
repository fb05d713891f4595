/// Works out where every entity and property of a model lives in a store.
///
/// For a new store it applies Core Data's naming rules (`Z` + upper-cased name, numeric
/// suffixes on collisions, `Z<n>_` entity columns, `Z_FOK_` order columns, `Z_<n><NAME>`
/// join tables). For an existing store it starts from the same names but checks each
/// against the store's own schema, falls back to what the schema really has, and records
/// every disagreement so it can be reported by name.
struct LayoutResolver {
    let model: ManagedObjectModel
    let numbers: [String: Int]
    let schema: DatabaseSchema?
    /// Entity name to the older name the store's `Z_PRIMARYKEY` records, where they differ.
    let storeNames: [String: String]
    /// The UUID of the store the mappings are for (see ``EntityMapping/storeUUID``).
    let storeUUID: String
    private(set) var differences: [String] = []

    /// Columns chosen for each (declaring entity, property) pair.
    private var columns = ColumnTable()
    private var entityColumns = ColumnTable()
    private var orderColumns = ColumnTable()

    private struct PropertyKey {
        var entity: String
        var property: String
    }

    /// Column names by entity, then property. Keyed by strings alone: the first dictionary
    /// keyed by a type of its own makes the Swift runtime scan every protocol conformance
    /// in the binary for that type's `Hashable` (see Benchmarks/README.md, "Cold start"),
    /// which cost every open a twentieth of a `graphstore STORE .entities`.
    private struct ColumnTable {
        private var byEntity: [String: [String: String]] = [:]

        subscript(key: PropertyKey) -> String? {
            get { byEntity[key.entity]?[key.property] }
            set { byEntity[key.entity, default: [:]][key.property] = newValue }
        }
    }

    init(model: ManagedObjectModel, numbers: [String: Int], schema: DatabaseSchema?, storeNames: [String: String] = [:], storeUUID: String) {
        self.model = model
        self.storeUUID = storeUUID
        self.numbers = numbers
        self.schema = schema
        self.storeNames = storeNames
    }

    /// Resolves every entity. Differences with the schema are in ``differences`` afterwards.
    mutating func resolve() -> [String: EntityMapping] {
        let ordered = model.entitiesInNumberingOrder
        for root in ordered where root.parent == nil {
            assignColumns(root: root)
        }
        let families = familyNumbers(ordered)
        // Parents come first in numbering order, so each entity starts from its parent's
        // properties: a deep hierarchy costs its size, not its size times its depth (a store
        // may claim a Z_SUPER chain a thousand entities deep).
        var inherited: [String: Inherited] = [:]
        var mappings: [String: EntityMapping] = [:]
        for entity in ordered {
            let parent = entity.parent.flatMap { inherited[$0] }
            let own = Inherited(
                rootName: parent?.rootName ?? entity.name,
                attributes: (parent?.attributes ?? []) + attributeMappings(declaredBy: entity),
                relationships: (parent?.relationships ?? []) + relationshipMappings(declaredBy: entity, families: families))
            inherited[entity.name] = own
            mappings[entity.name] = mapping(for: entity, inheriting: own, family: families[entity.name] ?? [])
        }
        return mappings
    }

    static func tableName(root: String) -> String { "Z" + root.uppercased() }

    /// The root's table: named after the entity, or, where a renaming left the store's
    /// table under the old name, that one.
    private func table(forRoot root: String) -> String {
        let table = LayoutResolver.tableName(root: root)
        guard let schema, schema.table(table) == nil, let old = storeNames[root] else { return table }
        let oldTable = LayoutResolver.tableName(root: old)
        return schema.table(oldTable) == nil ? table : oldTable
    }

    // MARK: - Columns

    private mutating func assignColumns(root: EntityDescription) {
        let table = table(forRoot: root.name)
        let existing = schema?.table(table)
        if schema != nil, existing == nil {
            differences.append("entity \(root.name): table \(table) is missing")
        }
        var used: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]
        for entity in model.selfAndDescendants(of: root.name) {
            for attribute in entity.attributes where attribute.isStored {
                let key = PropertyKey(entity: entity.name, property: attribute.name)
                columns[key] = claim(base: "Z" + attribute.name.uppercased(), in: existing, used: &used, what: "\(entity.name).\(attribute.name)")
            }
            for relationship in entity.relationships where !relationship.isToMany && !relationship.isTransient {
                let key = PropertyKey(entity: entity.name, property: relationship.name)
                let column = claim(base: "Z" + relationship.name.uppercased(), in: existing, used: &used, what: "\(entity.name).\(relationship.name)")
                columns[key] = column
                let bare = String(column.dropFirst())
                if !model.subentities(of: relationship.destination).isEmpty, let n = numbers[relationship.destination] {
                    entityColumns[key] = companion("Z\(n)_" + bare, in: existing, used: &used, what: "\(entity.name).\(relationship.name)")
                }
                if let inverse = model.inverse(of: relationship), inverse.isToMany, inverse.isOrdered {
                    orderColumns[key] = companion("Z_FOK_" + bare, in: existing, used: &used, what: "\(entity.name).\(relationship.name)")
                }
            }
        }
    }

    /// Picks the column for a property: the bare name, or the first free numbered variant.
    /// With a schema, only names the table really has are taken.
    private mutating func claim(base: String, in table: DatabaseSchema.Table?, used: inout Set<String>, what: String) -> String {
        var candidates = [base] + (1...16).map { base + String($0) }
        if let table {
            candidates = candidates.filter { table.has($0) }
        }
        guard let name = candidates.first(where: { !used.contains($0) }) else {
            differences.append("\(what): no column \(base) in table \(table?.name ?? "?")")
            used.insert(base)
            return base
        }
        used.insert(name)
        return name
    }

    private mutating func companion(_ name: String, in table: DatabaseSchema.Table?, used: inout Set<String>, what: String) -> String? {
        used.insert(name)
        guard let table else { return name }
        if table.has(name) { return name }
        differences.append("\(what): companion column \(name) is missing from table \(table.name)")
        return nil
    }

    // MARK: - Mappings

    /// What an entity's mapping takes from its ancestors: the root, and the properties
    /// mapped so far, inherited ones first.
    private struct Inherited {
        var rootName: String
        var attributes: [AttributeMapping]
        var relationships: [RelationshipMapping]
    }

    /// Each entity's number followed by its descendants' numbers, in numbering order, built
    /// from the leaves up so that no subtree is walked twice.
    private func familyNumbers(_ ordered: [EntityDescription]) -> [String: [Int]] {
        var families: [String: [Int]] = [:]
        for entity in ordered.reversed() {
            var family = numbers[entity.name].map { [$0] } ?? []
            for child in model.subentities(of: entity.name) {
                family += families[child.name] ?? []
            }
            families[entity.name] = family
        }
        return families
    }

    private func attributeMappings(declaredBy declaring: EntityDescription) -> [AttributeMapping] {
        declaring.attributes.map { attribute in
            AttributeMapping(
                attribute: attribute,
                column: attribute.isStored ? columns[PropertyKey(entity: declaring.name, property: attribute.name)] : nil)
        }
    }

    private mutating func relationshipMappings(
        declaredBy declaring: EntityDescription, families: [String: [Int]]
    ) -> [RelationshipMapping] {
        declaring.relationships.map { relationship in
            RelationshipMapping(
                relationship: relationship, storage: storage(of: relationship, declaredBy: declaring),
                destinationNumbers: families[relationship.destination] ?? [])
        }
    }

    private func mapping(for entity: EntityDescription, inheriting inherited: Inherited, family: [Int]) -> EntityMapping {
        let table = table(forRoot: inherited.rootName)
        return EntityMapping(
            entity: entity, number: numbers[entity.name] ?? 0,
            superNumber: entity.parent.flatMap { numbers[$0] } ?? 0,
            rootName: inherited.rootName, table: table, storeUUID: storeUUID,
            numbersWithDescendants: family,
            ownsWholeTable: entity.parent == nil, keys: KeyColumnSQL(table: schema?.table(table)),
            attributes: inherited.attributes, relationships: inherited.relationships)
    }

    private mutating func storage(of relationship: RelationshipDescription, declaredBy declaring: EntityDescription) -> RelationshipStorage {
        if relationship.isTransient { return .notStored(reason: "transient") }
        let key = PropertyKey(entity: declaring.name, property: relationship.name)
        if !relationship.isToMany {
            return .foreignKey(column: columns[key] ?? "", entityColumn: entityColumns[key], orderColumn: orderColumns[key])
        }
        guard let inverse = model.inverse(of: relationship),
            let inverseOwner = declaringEntity(of: inverse.name, in: relationship.destination)
        else {
            return .notStored(reason: "a to-many relationship without an inverse is not supported")
        }
        if !inverse.isToMany {
            let inverseKey = PropertyKey(entity: inverseOwner, property: inverse.name)
            let table = model.root(of: relationship.destination).map { LayoutResolver.tableName(root: $0.name) } ?? ""
            return .inverseForeignKey(
                table: table, column: columns[inverseKey] ?? "", entityColumn: entityColumns[inverseKey],
                orderColumn: orderColumns[inverseKey])
        }
        return .joinTable(joinTable(relationship, declaredBy: declaring.name, inverse: inverse, inverseOwner: inverseOwner))
    }

    private func declaringEntity(of property: String, in entity: String) -> String? {
        model.ancestry(of: entity).last { $0.relationship(named: property) != nil }?.name
    }

    /// Join table naming (format notes §4.3): the table is `Z_<n><NAME>` after the naming
    /// side (the ordered side, else the lower entity number); the column holding entity e's
    /// key is `Z_<e><relationship pointing to e>`.
    private mutating func joinTable(
        _ relationship: RelationshipDescription, declaredBy source: String,
        inverse: RelationshipDescription, inverseOwner destination: String
    ) -> JoinTable {
        let sourceNumber = numbers[source] ?? 0
        let destinationNumber = numbers[destination] ?? 0
        let sourceColumnBase = "Z_\(sourceNumber)\(inverse.name.uppercased())"
        let destinationColumnBase = "Z_\(destinationNumber)\(relationship.name.uppercased())"
        let sourceNames = relationship.isOrdered != inverse.isOrdered
            ? relationship.isOrdered
            : (sourceNumber, relationship.name) <= (destinationNumber, inverse.name)
        let candidates = [
            "Z_\(sourceNumber)\(relationship.name.uppercased())", "Z_\(destinationNumber)\(inverse.name.uppercased())",
        ]
        var tableName = sourceNames ? candidates[0] : candidates[1]
        var sourceColumn = sourceColumnBase
        var destinationColumn = destinationColumnBase
        if let schema {
            let found = candidates.lazy.compactMap { schema.table($0) }.first {
                Self.column(in: $0, base: sourceColumnBase) != nil && Self.column(in: $0, base: destinationColumnBase) != nil
            }
            if let found {
                tableName = found.name
                sourceColumn = Self.column(in: found, base: sourceColumnBase) ?? sourceColumnBase
                destinationColumn = Self.column(in: found, base: destinationColumnBase, excluding: sourceColumn) ?? destinationColumnBase
            } else {
                differences.append(
                    "\(source).\(relationship.name): no join table \(candidates.joined(separator: " or ")) with columns \(sourceColumnBase) and \(destinationColumnBase)")
            }
        }
        let order = relationship.isOrdered ? "Z_FOK_" + destinationColumn.dropFirst(2) : nil
        let inverseOrder = inverse.isOrdered ? "Z_FOK_" + sourceColumn.dropFirst(2) : nil
        return JoinTable(
            table: tableName, sourceColumn: sourceColumn, destinationColumn: destinationColumn,
            orderColumn: order, inverseOrderColumn: inverseOrder)
    }

    /// A join column named `base`, or `base` with a uniquing digit suffix.
    private static func column(in table: DatabaseSchema.Table, base: String, excluding: String? = nil) -> String? {
        table.columns.map(\.name).first { name in
            name != excluding && name.uppercased().hasPrefix(base.uppercased())
                && name.dropFirst(base.count).allSatisfy(\.isNumber)
        }
    }
}
