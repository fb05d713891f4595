/// Pairs destination entities (or properties) with source ones the way Core Data's
/// inferred mapping does: by renaming identifier.
///
/// Core Data's rule (its documentation of `renamingIdentifier`): a source and a destination
/// element "that share the same identifier" are mapped onto each other, and an element
/// whose renaming identifier is unset has its name as identifier. Xcode copies the
/// identifier into each new version, so a rename in version 2 and another in version 3
/// keep one canonical identifier and both 2→3 and 1→3 map.
///
/// Models in the wild also chain identifiers step by step, each naming the previous
/// version's name (jeffreybergier's test models do). Whether Core Data maps those is not
/// known; GraphStore maps them in a second pass, marked
/// ``InferredMapping/Match/renamingIdentifierNamesSource``, so a plan says which matches
/// rest on that guess.
struct RenamingMatcher {
    /// A named element and its renaming identifier.
    struct Element {
        var name: String
        var renamingIdentifier: String?

        /// The identifier Core Data compares: the renaming identifier, or the name.
        var identifier: String { renamingIdentifier.flatMap { $0.isEmpty ? nil : $0 } ?? name }
    }

    /// Destination name to its source name and how they were matched.
    private(set) var pairs: [String: (source: String, match: InferredMapping.Match)] = [:]
    /// Destination names that several elements claim, with the source names in question.
    private(set) var conflicts: [String: [String]] = [:]
    /// Destination names left unpaired although a source element of the same name is left
    /// unpaired too, because their identifiers differ: by Core Data's rule one is removed
    /// and the other added, which is most likely not what the model's author meant. The
    /// values are the source's and the destination's identifiers.
    private(set) var sameNameUnpaired: [String: (source: String, destination: String)] = [:]

    init(sources: [Element], destinations: [Element]) {
        let sourcesByIdentifier = Dictionary(grouping: sources, by: \.identifier)
        let destinationsByIdentifier = Dictionary(grouping: destinations, by: \.identifier)
        var claimed: Set<String> = []
        for (identifier, group) in destinationsByIdentifier {
            guard let candidates = sourcesByIdentifier[identifier] else { continue }
            if group.count == 1, candidates.count == 1 {
                pairs[group[0].name] = (candidates[0].name, .sameIdentifier)
                claimed.insert(candidates[0].name)
            } else {
                for element in group { conflicts[element.name] = candidates.map(\.name).sorted() }
            }
        }
        let sourceNames = Set(sources.map(\.name))
        // The second pass: a renaming identifier that names a source element outright.
        let unmatched = destinations.filter { pairs[$0.name] == nil && conflicts[$0.name] == nil }
        let byNamedSource = Dictionary(grouping: unmatched.filter { $0.renamingIdentifier.map(sourceNames.contains) == true }) {
            $0.renamingIdentifier ?? ""
        }
        for (source, group) in byNamedSource where !claimed.contains(source) {
            if group.count == 1 {
                pairs[group[0].name] = (source, .renamingIdentifierNamesSource)
                claimed.insert(source)
            } else {
                for element in group { conflicts[element.name] = [source] }
            }
        }
        let unclaimed = Dictionary(sources.filter { !claimed.contains($0.name) }.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for element in destinations where pairs[element.name] == nil && conflicts[element.name] == nil {
            if let twin = unclaimed[element.name] { sameNameUnpaired[element.name] = (twin.identifier, element.identifier) }
        }
    }
}
