/// What names an object of each entity across stores (`Book=title`): what seed imports,
/// diffs and updates match objects by, since two stores give the same book different
/// `Z_PK`s. A key is one property or several joined by `+` (`Ingredient=name+recipe`); a
/// part may be an attribute or a to-one relationship, which stands for its destination's own
/// key. A sub-entity without a key of its own uses its parent's; an entity with a
/// uniqueness constraint uses its first one when no key is given.
///
/// ```swift
/// let keys = try NaturalKeys(parsing: ["Book=title", "BookCategory=name"], model: model)
/// keys.parts(of: "Book")   // ["title"]
/// ```
public struct NaturalKeys: Sendable {
    /// The key's parts by entity name, as given.
    public private(set) var byEntity: [String: [String]]
    private let model: ManagedObjectModel
    /// Whether an object of an entity with no key is named by its object ID's number (`p3`),
    /// which an export writes in an `@id` column and an import gives the new object (so the
    /// store it goes into must not have that object ID yet): `export --ids`, `import --ids`.
    /// Such names hold only between a store and the files exported from it.
    public var keepsObjectIDs = false

    /// Keys from `Entity=part+part` words (each may also list several, comma-separated); an
    /// unknown entity or property, a to-many part, or a to-one part whose destination has no
    /// key is an error naming it.
    public init(parsing words: [String], model: ManagedObjectModel) throws(NaturalKeyError) {
        self.model = model
        byEntity = [:]
        for word in words.flatMap({ $0.split(separator: ",").map(String.init) }) where !word.isEmpty {
            let halves = word.split(separator: "=", maxSplits: 1).map(String.init)
            guard halves.count == 2 else { throw NaturalKeyError(text: word, reason: "expected Entity=attribute (or Entity=part+part)") }
            guard let entity = model.entity(named: halves[0]) else { throw NaturalKeyError(text: word, reason: "no entity \(halves[0])") }
            let parts = halves[1].split(separator: "+", omittingEmptySubsequences: false).map(String.init)
            for part in parts {
                if model.attributes(of: entity.name).contains(where: { $0.name == part }) { continue }
                guard let relationship = model.relationship(part, of: entity.name) else {
                    throw NaturalKeyError(text: word, reason: "\(entity.name) has no attribute or relationship \(part.isEmpty ? "\"\"" : part)")
                }
                guard !relationship.isToMany else {
                    throw NaturalKeyError(text: word, reason: "\(entity.name).\(part) is a to-many relationship; a key part is an attribute or a to-one")
                }
            }
            byEntity[entity.name] = parts
        }
        for (entity, parts) in byEntity {
            for part in parts {
                guard let relationship = model.relationship(part, of: entity), self.parts(of: relationship.destination) == nil else { continue }
                throw NaturalKeyError(
                    text: "\(entity)=\(parts.joined(separator: "+"))",
                    reason: "\(entity).\(part) leads to \(relationship.destination), which has no key to name it by (give --key \(relationship.destination)=ATTRIBUTE too)")
            }
        }
    }

    /// The parts of an entity's key: its own, its nearest ancestor's, or its first
    /// uniqueness constraint (of attributes and to-ones only); nil when it has none.
    public func parts(of entity: String) -> [String]? {
        var name: String? = entity
        while let current = name, let description = model.entity(named: current) {
            if let key = byEntity[current] { return key }
            name = description.parent
        }
        return model.entity(named: entity)?.uniquenessConstraints.first { constraint in
            !constraint.isEmpty && constraint.allSatisfy { part in
                model.attribute(part, of: entity) != nil || model.relationship(part, of: entity).map { !$0.isToMany } == true
            }
        }
    }

    /// An entity's key as written after `=` (`name+recipe`), or nil.
    public func text(of entity: String) -> String? {
        parts(of: entity)?.joined(separator: "+")
    }

    /// The keys given, as `Entity=part+part` words in entity order (what an update's
    /// `# keys:` line lists).
    public var words: [String] {
        byEntity.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.joined(separator: "+"))" }
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
