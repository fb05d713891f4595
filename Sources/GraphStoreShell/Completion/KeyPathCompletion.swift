import GraphStore

/// Key paths from an entity: `ti` → `title`; `category.na` → `category.name`, following
/// relationships to their destinations; `pages.@c` → `pages.@count` after a to-many.
struct KeyPathCompletion {
    let shell: Shell
    let root: EntityMapping

    /// Aggregates a to-many key path can end with.
    static let aggregates = ["@count", "@sum", "@avg", "@min", "@max"]

    /// What a whole key path names, for the operators that may follow it.
    enum Kind: Equatable {
        case attribute(AttributeType)
        case toOne
        case toMany
        /// `@count`, `@sum` … after a to-many: a number.
        case aggregate
    }

    /// What `keyPath` names from the root, following relationships; nil when it names
    /// nothing of the model.
    func kind(of keyPath: String) -> Kind? {
        var mapping = root
        var viaToMany = false
        let components = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for (index, component) in components.enumerated() {
            let isLast = index == components.count - 1
            if component.hasPrefix("@") { return isLast && viaToMany && Self.aggregates.contains(component) ? .aggregate : nil }
            if let attribute = mapping.attribute(named: component)?.attribute { return isLast ? .attribute(attribute.type) : nil }
            guard let relationship = mapping.relationship(named: component)?.relationship else { return nil }
            if isLast { return relationship.isToMany ? .toMany : .toOne }
            guard let destination = try? shell.mapping(relationship.destination) else { return nil }
            viaToMany = viaToMany || relationship.isToMany
            mapping = destination
        }
        return nil
    }

    /// Candidates for a partly typed key path. Attributes end the path (a space follows);
    /// relationships may continue it (nothing follows, so `.` can be typed).
    func candidates(for keyPath: String, relationshipsOnly: Bool) -> [CompletionCandidate] {
        var components = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let last = components.removeLast()
        var mapping = root
        var viaToMany = false
        for component in components {
            guard let relationship = mapping.relationship(named: component)?.relationship,
                let destination = try? shell.mapping(relationship.destination)
            else { return [] }
            viaToMany = relationship.isToMany
            mapping = destination
        }
        let prefix = components.isEmpty ? "" : components.joined(separator: ".") + "."
        var names: [CompletionCandidate] = []
        if last.hasPrefix("@") {
            guard viaToMany else { return [] }
            return Self.aggregates.filter { $0.hasPrefix(last) }.map { CompletionCandidate(prefix + $0, display: $0) }
        }
        if !relationshipsOnly {
            for attribute in mapping.attributes.map(\.attribute.name).sorted() where Completer.matches(attribute, last) {
                names.append(CompletionCandidate(prefix + attribute, display: attribute))
            }
        }
        for relationship in mapping.relationships.map(\.relationship.name).sorted() where Completer.matches(relationship, last) {
            names.append(CompletionCandidate(prefix + relationship, display: relationship, terminator: ""))
        }
        return names
    }
}
