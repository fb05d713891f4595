import GraphStore

/// `.schema [ENTITY]`: every property with its kind, type, rules and where it is stored.
enum SchemaCommand {
    static let entity = Placeholder("ENTITY[.KEYPATH]", .entityKeyPath)

    static let command = ShellCommand(
        ".schema", aliases: ["\\d"],
        arguments: [.optional([.oneOf([[.flag("--mermaid")], [.flag("--dot")], [.flag("--sql")]])]), .optional([.value(entity)])],
        summary: "show attributes, relationships and constraints, and the table/column each maps to; "
            + "--mermaid or --dot: the model as an entity-relationship diagram; --sql: the file's DDL",
        example: ".schema Book",
        details: """
            ENTITY.KEYPATH follows relationships: .schema Book.category shows BookCategory. \
            --mermaid prints a Mermaid erDiagram (for a README), --dot a Graphviz digraph \
            (graphstore -c '.schema --dot' STORE | dot -Tsvg > model.svg), both of the whole \
            model or of ENTITY; --sql prints the CREATE TABLE and CREATE INDEX statements of the file, \
            or with ENTITY those of its table (shared with its family) and of its relationships' join tables. \
            A sub-entity's inherited properties say so first in details (inherited from PARENT).
            """
    ) { shell, arguments in
        // A plain SQLite file has no model: its DDL is its schema, as sqlite3's .schema shows.
        if let plain = shell.plainFile { return shell.output(SchemaDiagram.sql(plain.schema)) }
        let store = try shell.requireStore()
        let mappings = try arguments[entity].map { [try shell.mapping(atKeyPath: $0)] } ?? store.allMappings
        if arguments.has("--sql") {
            let tables = arguments[entity] == nil ? nil : Set(mappings.flatMap(SchemaDiagram.tables(of:)))
            return shell.output(SchemaDiagram.sql(store.schema, only: tables))
        }
        if arguments.has("--mermaid") { return shell.output(SchemaDiagram.mermaid(store.model, entities: mappings.map(\.entity))) }
        if arguments.has("--dot") { return shell.output(SchemaDiagram.dot(store.model, entities: mappings.map(\.entity))) }
        defer { if case .inferred = store.modelOrigin { shell.diagnostics(inferredNote) } }
        var declarers = Declarers(model: store.model)
        shell.emit(columns: ["entity", "property", "kind", "type", "optional", "stored_in", "details"]) { sink in
            for mapping in mappings {
                for a in mapping.attributes {
                    sink.row([
                        .text(mapping.name), .text(a.attribute.name), .text(a.attribute.isTransient ? "transient attribute" : "attribute"),
                        .text(a.attribute.type.xcodeName), .value(.bool(a.attribute.isOptional)),
                        a.column.map { .text("\(mapping.table).\($0)") } ?? .null,
                        .text(declarers.inherited(a.attribute.name, in: mapping.entity, details: details(of: a, in: mapping, store: store))),
                    ])
                }
                for r in mapping.relationships {
                    sink.row([
                        .text(mapping.name), .text(r.relationship.name), .text(kind(of: r.relationship)), .text(r.relationship.destination),
                        .value(.bool(r.relationship.isOptional)), .text(storage(r.storage, table: mapping.table)),
                        .text(declarers.inherited(r.relationship.name, in: mapping.entity, details: details(of: r.relationship))),
                    ])
                }
                for constraint in mapping.entity.uniquenessConstraints {
                    sink.row([
                        .text(mapping.name), .text(constraint.joined(separator: ",")), .text("unique"), .null, .null, .null,
                        .text("values must be unique together"),
                    ])
                }
                for index in mapping.entity.fetchIndexes {
                    sink.row([
                        .text(mapping.name), .text(index.elements.map(\.property).joined(separator: ",")), .text("fetch index"),
                        .null, .null, store.index(for: index, of: mapping).map { .text($0.name) } ?? .null, .text(index.name),
                    ])
                }
            }
        }
    }

    /// A relationship's kind as `.schema` and `show` name it: to-one, to-many, ordered to-many.
    static func kind(of r: RelationshipDescription) -> String {
        r.isToMany ? (r.isOrdered ? "ordered to-many" : "to-many") : "to-one"
    }

    /// Said after the schema of an inferred model: its types and relationships are guesses.
    static let inferredNote = """
        note: no model was given and the store has no Z_MODELCACHE, so this model is inferred from the tables: \
        types, optionality and relationships are guesses (see .model); open the store with --model PATH \
        (its .xcdatamodeld, .xcdatamodel or .momd) for the real model

        """

    /// An attribute's details; for an inferred model, what its type was guessed from.
    static func details(of a: AttributeMapping, in mapping: EntityMapping, store: PersistentStore) -> String {
        let known = details(of: a.attribute)
        guard case .inferred = store.modelOrigin, let column = a.column else { return known }
        let declared = store.table(of: mapping)?.column(column)?.declaredType ?? ""
        let guess = "guessed: \(a.attribute.type.xcodeName) from the column type \(declared.isEmpty ? "(none)" : declared) and its values"
        return known.isEmpty ? guess : known + "; " + guess
    }

    static func details(of a: AttributeDescription) -> String {
        var parts: [String] = []
        if let d = a.defaultValue { parts.append("default \(d)") }
        if let v = a.minValue { parts.append("min \(AttributeValue.format(v))") }
        if let v = a.maxValue { parts.append("max \(AttributeValue.format(v))") }
        if let v = a.minLength { parts.append("min length \(v)") }
        if let v = a.maxLength { parts.append("max length \(v)") }
        if let v = a.minDate { parts.append("not before \(AttributeValue.iso8601(v))") }
        if let v = a.maxDate { parts.append("not after \(AttributeValue.iso8601(v))") }
        if let v = a.regularExpression { parts.append("matches \(v)") }
        if let v = a.valueTransformerName { parts.append("transformer \(v)") }
        if a.allowsExternalBinaryDataStorage { parts.append("external storage allowed") }
        if let v = a.derivationExpression { parts.append("derived from \(v)") }
        return parts.joined(separator: "; ")
    }

    static func details(of r: RelationshipDescription) -> String {
        var parts = ["inverse \(r.inverse ?? "none")", "delete rule \(r.deleteRule.xcodeName)"]
        if r.isToMany, r.minCount > 0 { parts.append("min count \(r.minCount)") }
        if r.isToMany, r.maxCount > 0 { parts.append("max count \(r.maxCount)") }
        if let note = r.userInfo["inferred"] { parts.append("inferred: \(note)") }
        return parts.joined(separator: "; ")
    }

    static func storage(_ storage: RelationshipStorage, table: String) -> String {
        switch storage {
        case .foreignKey(let column, let entityColumn, let orderColumn):
            return "\(table).\(([column] + [entityColumn, orderColumn].compactMap { $0 }).joined(separator: ","))"
        case .inverseForeignKey(let table, let column, _, let orderColumn):
            return "\(table).\(column) (inverse key)" + (orderColumn.map { " ordered by \($0)" } ?? "")
        case .joinTable(let join):
            return "\(join.table)(\(join.sourceColumn),\(join.destinationColumn))" + (join.orderColumn.map { " ordered by \($0)" } ?? "")
        case .notStored(let reason):
            return "not stored: \(reason)"
        }
    }
}

/// Which ancestor declares each property an entity inherits, for `.schema`'s "inherited from
/// PARENT" (Xcode shows such properties greyed out). Each entity's answer is made once from
/// its parent's, so a chain of entities 1,000 deep costs a step per entity rather than a
/// walk up the chain for every property of every entity.
struct Declarers {
    let model: ManagedObjectModel
    /// For each entity worked out: property name → the nearest entity (it or an ancestor) declaring it.
    private var byEntity: [String: [String: String]] = [:]

    init(model: ManagedObjectModel) { self.model = model }

    /// A property's details, starting `inherited from PARENT` when `entity` inherits it
    /// rather than declares it.
    mutating func inherited(_ property: String, in entity: EntityDescription, details: String) -> String {
        guard let parent = entity.parent, entity.attribute(named: property) == nil, entity.relationship(named: property) == nil,
            let ancestor = declared(in: parent)[property]
        else { return details }
        return "inherited from \(ancestor)" + (details.isEmpty ? "" : "; " + details)
    }

    /// Property name → declaring entity, for `name` and its ancestors.
    private mutating func declared(in name: String) -> [String: String] {
        if let known = byEntity[name] { return known }
        // Up to the first entity already worked out (or the root); a cycle stops at the model's size.
        var chain: [EntityDescription] = []
        var current = model.entity(named: name)
        while let entity = current, byEntity[entity.name] == nil, chain.count <= model.entities.count {
            chain.append(entity)
            current = entity.parent.flatMap { model.entity(named: $0) }
        }
        var declared = current.flatMap { byEntity[$0.name] } ?? [:]
        for entity in chain.reversed() {
            for attribute in entity.attributes { declared[attribute.name] = entity.name }
            for relationship in entity.relationships { declared[relationship.name] = entity.name }
            byEntity[entity.name] = declared
        }
        return declared
    }
}
