import GraphStore

/// `.schema --mermaid` and `.schema --dot`: the model as an entity–relationship diagram
/// (entities with their attributes and types, relationships with cardinality and inverse,
/// inheritance), for a README (Mermaid) or Graphviz (DOT).
enum SchemaDiagram {
    /// A relationship drawn once: with its inverse when it has one.
    private struct Edge {
        var source: String
        var relationship: RelationshipDescription
        var inverse: RelationshipDescription?
    }

    private static func edges(_ model: ManagedObjectModel, _ entities: [EntityDescription]) -> [Edge] {
        var drawn = Set<String>()
        var edges: [Edge] = []
        for entity in entities {
            for relationship in entity.relationships {
                let key = "\(entity.name).\(relationship.name)"
                guard drawn.insert(key).inserted else { continue }
                let inverse = relationship.inverse.flatMap { model.relationship($0, of: relationship.destination) }
                if let inverse { drawn.insert("\(relationship.destination).\(inverse.name)") }
                edges.append(Edge(source: entity.name, relationship: relationship, inverse: inverse))
            }
        }
        return edges
    }

    // MARK: - Mermaid

    /// A Mermaid `erDiagram`.
    static func mermaid(_ model: ManagedObjectModel, entities: [EntityDescription]) -> String {
        var lines = ["erDiagram"]
        for entity in entities {
            // An entity with no attributes of its own is named alone (an empty block is not Mermaid).
            guard !entity.attributes.isEmpty else {
                lines.append("    \(identifier(entity.name))")
                continue
            }
            lines.append("    \(identifier(entity.name)) {")
            for attribute in entity.attributes {
                lines.append("        \(identifier(attribute.type.xcodeName)) \(identifier(attribute.name))" + (attribute.isOptional ? "" : " \"required\""))
            }
            lines.append("    }")
        }
        for edge in edges(model, entities) {
            // The marker beside an entity says how many of it one object of the other has.
            let right = mermaidMarker(edge.relationship, right: true)
            let left = edge.inverse.map { mermaidMarker($0, right: false) } ?? "}o"
            let label = edge.relationship.name + (edge.inverse.map { " / \($0.name)" } ?? "")
            lines.append("    \(identifier(edge.source)) \(left)--\(right) \(identifier(edge.relationship.destination)) : \"\(label)\"")
        }
        for entity in entities {
            if let parent = entity.parent { lines.append("    \(identifier(entity.name)) |o..|| \(identifier(parent)) : \"is a\"") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func mermaidMarker(_ relationship: RelationshipDescription, right: Bool) -> String {
        let many = relationship.isToMany
        let required = relationship.isToMany ? relationship.minCount > 0 : !relationship.isOptional
        switch (many, required, right) {
        case (true, true, true): return "|{"
        case (true, false, true): return "o{"
        case (false, true, true): return "||"
        case (false, false, true): return "o|"
        case (true, true, false): return "}|"
        case (true, false, false): return "}o"
        case (false, true, false): return "||"
        case (false, false, false): return "|o"
        }
    }

    /// Mermaid names are word characters.
    private static func identifier(_ name: String) -> String {
        String(name.unicodeScalars.map { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" ? Character($0) : "_" })
    }

    // MARK: - DOT

    /// A Graphviz digraph: one record node per entity, an edge per relationship (both ends
    /// labelled with their name and cardinality), a hollow arrow to a parent entity.
    static func dot(_ model: ManagedObjectModel, entities: [EntityDescription]) -> String {
        var lines = ["digraph model {", "    rankdir=LR;", "    node [shape=record, fontname=\"Helvetica\"];"]
        for entity in entities {
            let attributes = entity.attributes.map { "\(escape($0.name)) : \(escape($0.type.xcodeName))\(($0.isOptional ? "" : " (required)"))\\l" }.joined()
            lines.append("    \(quoted(entity.name)) [label=\"{\(escape(entity.name) + (entity.isAbstract ? " (abstract)" : ""))|\(attributes)}\"];")
        }
        for edge in edges(model, entities) {
            var attributes = ["headlabel=\"\(escape(edge.relationship.name)) \(cardinality(edge.relationship))\""]
            if let inverse = edge.inverse {
                attributes += ["taillabel=\"\(escape(inverse.name)) \(cardinality(inverse))\"", "dir=both"]
            }
            attributes.append(edge.relationship.isToMany ? "arrowhead=crow" : "arrowhead=tee")
            if let inverse = edge.inverse { attributes.append(inverse.isToMany ? "arrowtail=crow" : "arrowtail=tee") }
            lines.append("    \(quoted(edge.source)) -> \(quoted(edge.relationship.destination)) [\(attributes.joined(separator: ", "))];")
        }
        for entity in entities {
            if let parent = entity.parent { lines.append("    \(quoted(entity.name)) -> \(quoted(parent)) [arrowhead=empty, style=dashed, label=\"is a\"];") }
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func cardinality(_ relationship: RelationshipDescription) -> String {
        if relationship.isToMany { return relationship.minCount > 0 ? "1..*" : "0..*" }
        return relationship.isOptional ? "0..1" : "1"
    }

    private static func quoted(_ name: String) -> String { "\"\(name.replacingOccurrences(of: "\"", with: "\\\""))\"" }

    /// Record labels give `{ } | < >` and quotes a meaning of their own.
    private static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            if "{}|<>\"\\".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    // MARK: - SQL

    /// The file's own DDL: each table's `CREATE TABLE`, then each index's, as stored; only
    /// of the tables named in `only` (any case) when it is given.
    static func sql(_ schema: DatabaseSchema, only: Set<String>? = nil) -> String {
        let wanted = only.map { Set($0.map { $0.uppercased() }) }
        func isWanted(_ table: String) -> Bool { wanted?.contains(table.uppercased()) ?? true }
        let tables = schema.tables.values.filter { isWanted($0.name) }.sorted { $0.name < $1.name }.map(\.sql)
        let indexes = schema.indexes.filter { isWanted($0.table) }.compactMap(\.sql)
        return (tables + indexes).map { $0 + ";\n" }.joined()
    }

    /// The tables that hold an entity's rows and links: its family's table and the join
    /// tables of its many-to-many relationships.
    static func tables(of mapping: EntityMapping) -> Set<String> {
        var tables: Set<String> = [mapping.table]
        for r in mapping.relationships {
            if case .joinTable(let join) = r.storage { tables.insert(join.table) }
        }
        return tables
    }
}
