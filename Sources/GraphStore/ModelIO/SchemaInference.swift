/// Infers a model from a store's schema when neither a model file nor `Z_MODELCACHE` is at
/// hand: entities and inheritance from `Z_PRIMARYKEY`, attributes from columns and their
/// declared types, to-one relationships from indexed key columns (and their `Z<n>_`
/// companions), to-many inverses from those keys, many-to-many from join tables.
///
/// Core Data upper-cases property names in column names, so the original case is lost:
/// every guessed name is listed in the notes, so the user knows what was inferred.
struct SchemaInference {
    /// Reads the sample keys that tell a to-one's concrete destination.
    let sampler: SchemaSampler
    let schema: DatabaseSchema
    let records: [Int: PrimaryKeyEntry]

    func infer() throws(ModelError) -> (ManagedObjectModel, [String]) {
        var notes: [String] = ["property names are guessed from upper-cased column names (case may differ from the app's model)"]
        let entityRecords = records.values.filter { $0.number < 16000 }.sorted { $0.number < $1.number }
        var entities: [String: EntityDescription] = [:]
        var order: [String] = []
        let nameByNumber = Dictionary(entityRecords.map { ($0.number, $0.name) }, uniquingKeysWith: { a, _ in a })
        for record in entityRecords {
            entities[record.name] = EntityDescription(record.name, parent: nameByNumber[record.superNumber])
            order.append(record.name)
        }
        let entityByUpper = Dictionary(entityRecords.map { ($0.name.uppercased(), $0.name) }, uniquingKeysWith: { a, _ in a })
        let tree = RecordTree(entityRecords)
        var toOnes: [(owner: String, name: String, destination: String, ordered: Bool)] = []
        for record in entityRecords where record.superNumber == 0 {
            let tableName = "Z" + record.name.uppercased()
            guard let table = schema.table(tableName) else {
                notes.append("entity \(record.name): no table \(tableName); its objects cannot be read")
                continue
            }
            let columnNames = Set(table.columns.map { $0.name.uppercased() })
            let indexed = Set(schema.indexes.filter { $0.table.equalsSQLIdentifier(tableName) }.map { $0.name.uppercased() })
            for column in table.columns {
                let upper = column.name.uppercased()
                if ["Z_PK", "Z_ENT", "Z_OPT"].contains(upper) || upper.hasPrefix("Z_FOK_") || isCompanion(upper) { continue }
                guard upper.hasPrefix("Z"), upper.count > 1 else { continue }
                let bare = String(upper.dropFirst())
                let companion = table.columns.first { c in
                    let u = c.name.uppercased()
                    return isCompanion(u) && u.hasSuffix("_" + bare) && u.dropLast(bare.count + 1).dropFirst().allSatisfy(\.isNumber)
                }
                let isKey = column.declaredType.uppercased() == "INTEGER"
                    && (indexed.contains("\(tableName)_\(upper)_INDEX") || companion != nil)
                if isKey, var destination = destinationOfKey(bare: bare, companion: companion?.name, nameByNumber: nameByNumber, entityByUpper: entityByUpper) {
                    if companion == nil, let leaf = leafDestination(for: destination, table: tableName, column: column.name, tree: tree) {
                        if leaf != destination {
                            notes.append("\(record.name).\(propertyName(bare, entityByUpper: entityByUpper)): destination guessed as \(leaf) (no Z<n>_ column, so not \(destination), which has sub-entities)")
                        }
                        destination = leaf
                    }
                    let name = propertyName(bare, entityByUpper: entityByUpper)
                    toOnes.append((record.name, name, destination, columnNames.contains("Z_FOK_" + bare)))
                    entities[record.name]?.relationships.append(RelationshipDescription(name, to: destination))
                } else {
                    if isKey {
                        notes.append("\(record.name).\(propertyName(bare, entityByUpper: entityByUpper)): column \(column.name) is indexed like a to-one key, but its destination entity cannot be told from the schema; shown as a number")
                    }
                    let name = propertyName(bare, entityByUpper: entityByUpper)
                    var type = attributeType(declared: column.declaredType)
                    // Pure Swift: Foundation's trimmingCharacters(in:) bridges through NSString,
                    // whose first use cost a fifth of opening a store without a model cache.
                    if column.declaredType.allSatisfy(\.isWhitespace), let sampled = attributeType(sampling: tableName, column: column.name) {
                        // A table made by hand (a CSV import, a script) declares no types;
                        // Core Data would have declared one, so the values tell which.
                        type = sampled
                        notes.append("\(record.name).\(name): column \(column.name) declares no type; \(type.xcodeName) is guessed from its values")
                    }
                    entities[record.name]?.attributes.append(AttributeDescription(name, type))
                }
            }
        }
        addInverses(toOnes, to: &entities, notes: &notes)
        addManyToMany(nameByNumber: nameByNumber, to: &entities, notes: &notes)
        let model = try ManagedObjectModel(entities: order.compactMap { entities[$0] }, versionIdentifiers: [])
        return (model, notes)
    }

    /// A key column without a `Z<n>_` companion points at an entity without sub-entities.
    /// When the name-guessed destination has sub-entities, a stored key shows which one;
    /// with no rows, the first entity without sub-entities below it is taken.
    private func leafDestination(for guess: String, table: String, column: String, tree: RecordTree) -> String? {
        let byNumber = tree.byNumber
        func children(_ number: Int) -> [PrimaryKeyEntry] { tree.children[number] ?? [] }
        guard let guessed = tree.byName[guess], !children(guessed.number).isEmpty else { return guess }
        var root = guessed
        // Bounded: a store's Z_SUPER is checked for cycles when it opens, but a walk that
        // could loop forever is not kept on that promise alone.
        var steps = 0
        while let parent = byNumber[root.superNumber], steps < byNumber.count {
            root = parent
            steps += 1
        }
        if case .integer(let key)? = sampler.firstValue(in: table, column: column),
            case .integer(let number)? = sampler.entityNumber(in: "Z" + root.name.uppercased(), primaryKey: key),
            let found = byNumber[Int(number)], children(found.number).isEmpty
        {
            return found.name
        }
        var stack = [guessed]
        while let next = stack.popLast() {
            let kids = children(next.number).sorted { $0.number > $1.number }
            if kids.isEmpty { return next.name }
            stack += kids
        }
        return guess
    }

    /// `Z_PRIMARYKEY`'s entities by number, by name and by parent, made once per inference:
    /// looked up per key column, a walk over the rows each time made a deep hierarchy
    /// (20,000 entities in a chain) take quadratic time to open.
    struct RecordTree {
        let byNumber: [Int: PrimaryKeyEntry]
        let byName: [String: PrimaryKeyEntry]
        /// Each entity's sub-entities, by the parent's number.
        let children: [Int: [PrimaryKeyEntry]]

        init(_ records: [PrimaryKeyEntry]) {
            byNumber = Dictionary(records.map { ($0.number, $0) }, uniquingKeysWith: { a, _ in a })
            byName = Dictionary(records.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
            children = Dictionary(grouping: records, by: \.superNumber)
        }
    }

    private func isCompanion(_ upper: String) -> Bool {
        guard upper.hasPrefix("Z"), let underscore = upper.firstIndex(of: "_") else { return false }
        let digits = upper[upper.index(after: upper.startIndex)..<underscore]
        return !digits.isEmpty && digits.allSatisfy(\.isNumber)
    }

    private func destinationOfKey(bare: String, companion: String?, nameByNumber: [Int: String], entityByUpper: [String: String]) -> String? {
        if let companion, let underscore = companion.firstIndex(of: "_"),
            let number = Int(companion[companion.index(after: companion.startIndex)..<underscore])
        {
            return nameByNumber[number]
        }
        if let exact = entityByUpper[bare] { return exact }
        // A loop rather than reversed().drop(while:).reversed(): those generic wrappers cost
        // more to instantiate at start-up than the whole comparison.
        var end = bare.endIndex
        while end > bare.startIndex, bare[bare.index(before: end)].isNumber { end = bare.index(before: end) }
        let stripped = String(bare[..<end])
        if let exact = entityByUpper[stripped] { return exact }
        return entityByUpper.keys.sorted().first { $0.hasSuffix(stripped) }.flatMap { entityByUpper[$0] }
    }

    /// `ZBOOKCATEGORY` → `bookCategory` when an entity has that name; otherwise lower-cased.
    private func propertyName(_ bare: String, entityByUpper: [String: String]) -> String {
        if let entity = entityByUpper[bare] { return entity.prefix(1).lowercased() + entity.dropFirst() }
        return bare.lowercased()
    }

    /// The type a column without a declared type holds, from its first value: a number
    /// (or text that spells one, as hand-made stores keep numbers) is Integer 64 when whole
    /// and Double otherwise, other text String, a blob Binary; nil for a column of NULLs.
    private func attributeType(sampling table: String, column: String) -> AttributeType? {
        switch sampler.firstValue(in: table, column: column) {
        case .integer?: return .integer64
        case .real?: return .double
        case .text(let text)?:
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if Int64(trimmed) != nil { return .integer64 }
            if ColumnAccessor.isNumeric(trimmed) { return .double }
            return .string
        case .blob?: return .binaryData
        case .null?, nil: return nil
        }
    }

    private func attributeType(declared: String) -> AttributeType {
        switch declared.uppercased() {
        case "INTEGER": .integer64
        case "FLOAT", "REAL": .double
        case "TIMESTAMP": .date
        case "DECIMAL": .decimal
        case "VARCHAR", "TEXT": .string
        default: .binaryData
        }
    }

    /// Pairs two to-ones pointing at each other as a one-to-one; gives every other to-one
    /// a to-many inverse on its destination, named after the source entity.
    private func addInverses(_ toOnes: [(owner: String, name: String, destination: String, ordered: Bool)], to entities: inout [String: EntityDescription], notes: inout [String]) {
        var paired = Set<Int>()
        for (i, a) in toOnes.enumerated() where !paired.contains(i) {
            if let j = toOnes.indices.first(where: { j in
                j != i && !paired.contains(j) && toOnes[j].owner == a.destination && toOnes[j].destination == a.owner
            }) {
                paired.formUnion([i, j])
                setInverse(a.owner, a.name, to: toOnes[j].name, in: &entities)
                setInverse(toOnes[j].owner, toOnes[j].name, to: a.name, in: &entities)
                continue
            }
            var name = a.owner.prefix(1).lowercased() + a.owner.dropFirst() + "s"
            while hasProperty(name, a.destination, entities) { name += "_" }
            var inverse = RelationshipDescription(name, to: a.owner, inverse: a.name, toMany: true, ordered: a.ordered)
            inverse.userInfo["inferred"] = "inverse of \(a.owner).\(a.name)"
            entities[a.destination]?.relationships.append(inverse)
            setInverse(a.owner, a.name, to: name, in: &entities)
            notes.append("\(a.destination).\(name): a to-many inferred as the inverse of \(a.owner).\(a.name); its real name is unknown")
        }
    }

    private func setInverse(_ entity: String, _ relationship: String, to inverse: String, in entities: inout [String: EntityDescription]) {
        guard let i = entities[entity]?.relationships.firstIndex(where: { $0.name == relationship }) else { return }
        entities[entity]?.relationships[i].inverse = inverse
    }

    private func hasProperty(_ name: String, _ entity: String, _ entities: [String: EntityDescription]) -> Bool {
        guard let e = entities[entity] else { return false }
        return e.attribute(named: name) != nil || e.relationship(named: name) != nil
    }

    /// Join tables `Z_<n><NAME>` with two key columns `Z_<e><REL>`: the column holding
    /// entity e's keys is named after the relationship that points to e.
    private func addManyToMany(nameByNumber: [Int: String], to entities: inout [String: EntityDescription], notes: inout [String]) {
        for table in schema.tables.values.sorted(by: { $0.name < $1.name }) {
            let upper = table.name.uppercased()
            guard upper.hasPrefix("Z_"), upper != "Z_PRIMARYKEY", upper != "Z_METADATA", upper != "Z_MODELCACHE",
                upper.dropFirst(2).first?.isNumber == true
            else { continue }
            let keys = table.columns.map { $0.name.uppercased() }.filter { !$0.hasPrefix("Z_FOK_") }
            guard keys.count == 2, let first = joinColumn(keys[0]), let second = joinColumn(keys[1]),
                let firstEntity = nameByNumber[first.number], let secondEntity = nameByNumber[second.number]
            else { continue }
            let fromSecond = first.relationship.lowercased()
            let fromFirst = second.relationship.lowercased()
            let orderedFromFirst = table.columns.contains { $0.name.uppercased() == "Z_FOK_" + keys[1].dropFirst(2) }
            let orderedFromSecond = table.columns.contains { $0.name.uppercased() == "Z_FOK_" + keys[0].dropFirst(2) }
            guard !hasProperty(fromFirst, firstEntity, entities), !hasProperty(fromSecond, secondEntity, entities) else { continue }
            entities[firstEntity]?.relationships.append(
                RelationshipDescription(fromFirst, to: secondEntity, inverse: fromSecond, toMany: true, ordered: orderedFromFirst))
            if firstEntity != secondEntity || fromFirst != fromSecond {
                entities[secondEntity]?.relationships.append(
                    RelationshipDescription(fromSecond, to: firstEntity, inverse: fromFirst, toMany: true, ordered: orderedFromSecond))
            }
            notes.append("\(firstEntity).\(fromFirst) ⇄ \(secondEntity).\(fromSecond): many-to-many inferred from join table \(table.name)")
        }
    }

    private func joinColumn(_ name: String) -> (number: Int, relationship: String)? {
        guard name.hasPrefix("Z_") else { return nil }
        let rest = name.dropFirst(2)
        let digits = rest.prefix(while: \.isNumber)
        guard let number = Int(digits), digits.count < rest.count else { return nil }
        let relationship = String(rest.dropFirst(digits.count).reversed().drop(while: \.isNumber).reversed())
        return relationship.isEmpty ? nil : (number, relationship)
    }
}
