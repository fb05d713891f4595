import GraphStore

/// `.schema [ENTITY]`: every property with its kind, type, rules and where it is stored.
enum SchemaCommand {
    static let entity = Placeholder("ENTITY[.KEYPATH]", .entityKeyPath)

    static let command = ShellCommand(
        ".schema", aliases: ["\\d"], arguments: [.optional([.value(entity)])],
        summary: "show attributes, relationships and constraints, and the table/column each maps to",
        example: ".schema Book",
        details: "ENTITY.KEYPATH follows relationships: .schema Book.category shows BookCategory."
    ) { shell, arguments in
        let store = try shell.requireStore()
        let mappings = try arguments[entity].map { [try shell.mapping(atKeyPath: $0)] } ?? store.allMappings
        shell.emit(columns: ["entity", "property", "kind", "type", "optional", "stored_in", "details"]) { sink in
            for mapping in mappings {
                for a in mapping.attributes {
                    sink.row([
                        .text(mapping.name), .text(a.attribute.name), .text(a.attribute.isTransient ? "transient attribute" : "attribute"),
                        .text(a.attribute.type.xcodeName), .value(.bool(a.attribute.isOptional)),
                        a.column.map { .text("\(mapping.table).\($0)") } ?? .null, .text(details(of: a.attribute)),
                    ])
                }
                for r in mapping.relationships {
                    let kind = r.relationship.isToMany ? (r.relationship.isOrdered ? "ordered to-many" : "to-many") : "to-one"
                    sink.row([
                        .text(mapping.name), .text(r.relationship.name), .text(kind), .text(r.relationship.destination),
                        .value(.bool(r.relationship.isOptional)), .text(storage(r.storage, table: mapping.table)),
                        .text(details(of: r.relationship)),
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
