/// The attribute that names an object of each entity across stores (`Book=title`): what seed
/// imports, diffs and updates match objects by, since two stores give the same book
/// different `Z_PK`s. A sub-entity without a key of its own uses its parent's; an entity with
/// a one-attribute uniqueness constraint uses that attribute when no key is given.
///
/// ```swift
/// let keys = try NaturalKeys(parsing: ["Book=title", "BookCategory=name"], model: model)
/// keys.attribute(of: "Book")   // "title"
/// ```
public struct NaturalKeys: Sendable {
    /// The key attribute by entity name, as given.
    public private(set) var byEntity: [String: String]
    private let model: ManagedObjectModel

    /// Keys from `Entity=attribute` words (each may also list several, comma-separated);
    /// an unknown entity or attribute is an error naming it.
    public init(parsing words: [String], model: ManagedObjectModel) throws(NaturalKeyError) {
        self.model = model
        byEntity = [:]
        for word in words.flatMap({ $0.split(separator: ",").map(String.init) }) where !word.isEmpty {
            let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw NaturalKeyError(text: word, reason: "expected Entity=attribute") }
            guard let entity = model.entity(named: parts[0]) else { throw NaturalKeyError(text: word, reason: "no entity \(parts[0])") }
            guard model.attributes(of: entity.name).contains(where: { $0.name == parts[1] }) else {
                throw NaturalKeyError(text: word, reason: "\(entity.name) has no attribute \(parts[1])")
            }
            byEntity[entity.name] = parts[1]
        }
    }

    /// The key attribute of an entity: its own, its nearest ancestor's, or its one-attribute
    /// uniqueness constraint; nil when it has none.
    public func attribute(of entity: String) -> String? {
        var name: String? = entity
        while let current = name, let description = model.entity(named: current) {
            if let key = byEntity[current] { return key }
            name = description.parent
        }
        return model.entity(named: entity)?.uniquenessConstraints.first { $0.count == 1 }?.first
    }
}

/// A natural key given wrongly.
public struct NaturalKeyError: Error, CustomStringConvertible {
    /// The word given.
    public var text: String
    /// Why it is refused.
    public var reason: String

    public var description: String { "--key \(text): \(reason)" }
}
