import GraphStore

extension Shell {
    /// The entity at the end of `Entity.relationship.relationship…` (just `Entity` is the
    /// entity itself), or an error naming the step that does not exist.
    public func mapping(atKeyPath keyPath: String) throws -> EntityMapping {
        let components = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var mapping = try self.mapping(components[0])
        for component in components.dropFirst() {
            guard let relationship = mapping.relationship(named: component)?.relationship else {
                let names = mapping.relationships.map(\.relationship.name)
                throw ShellError(
                    "\(mapping.name) has no relationship \(component)"
                        + Suggestion.didYouMean(component, among: names, otherwise: names.isEmpty ? "" : "; relationships: \(names.joined(separator: ", "))"))
            }
            mapping = try self.mapping(relationship.destination)
        }
        return mapping
    }
}
