/// How two models differ on what Core Data's entity version hashes cover: how Core Data
/// tells whether two models are one version (it compares hashes, nothing else).
///
/// Each difference is reported once, at the entity that declares the property or setting
/// (a sub-entity's hash also changes with its parent's, but the cause is the parent's).
/// Not compared, as no hash covers them: user info, default values, validation rules,
/// indexes, delete rules, class names, transient properties; nor the details of a derived
/// attribute beyond its name and type (its expression and flags are archived by Core Data
/// in ways GraphStore's hash construction does not confirm); nor an inherited property a
/// sub-entity repeats (Core Data's archive lists every inherited property again).
///
/// ```swift
/// model.versionHashDifferences(from: cached, names: ("the model", "Z_MODELCACHE"))
/// // ["Book.title: optional true in the model, false in Z_MODELCACHE"]
/// ```
extension ManagedObjectModel {
    /// The differences from `other`, entity by entity, each model called by its name in
    /// `names`; empty when Core Data would take the two for one model version.
    public func versionHashDifferences(
        from other: ManagedObjectModel, names: (this: String, other: String) = ("this model", "the other model")
    ) -> [String] {
        var found: [String] = []
        for name in Set(entities.map(\.name)).union(other.entities.map(\.name)).sorted() {
            guard let mine = entity(named: name), let theirs = other.entity(named: name) else {
                found.append("\(name): in \(entity(named: name) == nil ? names.other : names.this) only")
                continue
            }
            found += entityDifferences(mine, theirs, other, names)
        }
        return found
    }

    private func entityDifferences(
        _ mine: EntityDescription, _ theirs: EntityDescription, _ other: ManagedObjectModel, _ names: (this: String, other: String)
    ) -> [String] {
        var found: [String] = []
        func compare<T: Equatable>(_ field: String, _ a: T, _ b: T, _ text: (T) -> String) {
            if a != b { found.append("\(mine.name): \(field) \(text(a)) in \(names.this), \(text(b)) in \(names.other)") }
        }
        compare("parent", mine.parent, theirs.parent) { $0 ?? "none" }
        compare("abstract", mine.isAbstract, theirs.isAbstract) { "\($0)" }
        compare("version hash modifier", mine.versionHashModifier, theirs.versionHashModifier) { $0 ?? "none" }
        compare("uniqueness constraints", mine.uniquenessConstraints, theirs.uniquenessConstraints) {
            $0.map { $0.joined(separator: ",") }.joined(separator: "; ")
        }
        let myProperties = hashedOwnProperties(of: mine)
        let theirProperties = other.hashedOwnProperties(of: theirs)
        for property in Set(myProperties.keys).union(theirProperties.keys).sorted() {
            switch (myProperties[property], theirProperties[property]) {
            case (nil, _): found.append("\(mine.name).\(property): in \(names.other) only")
            case (_, nil): found.append("\(mine.name).\(property): in \(names.this) only")
            case let (a?, b?) where a != b: found.append("\(mine.name).\(property): \(a.differenceText(from: b, names))")
            default: break
            }
        }
        return found
    }

    /// An entity's own stored properties, by name, without those its ancestors declare.
    private func hashedOwnProperties(of entity: EntityDescription) -> [String: HashedProperty] {
        let inherited = Set(entity.parent.map { attributes(of: $0).map(\.name) + relationships(of: $0).map(\.name) } ?? [])
        var result: [String: HashedProperty] = [:]
        for attribute in entity.attributes where !attribute.isTransient && !inherited.contains(attribute.name) {
            result[attribute.name] = .attribute(attribute)
        }
        for relationship in entity.relationships where !relationship.isTransient && !inherited.contains(relationship.name) {
            result[relationship.name] = .relationship(relationship)
        }
        return result
    }
}

/// A property as its version hash sees it.
private enum HashedProperty: Equatable {
    case attribute(AttributeDescription)
    case relationship(RelationshipDescription)

    static func == (a: HashedProperty, b: HashedProperty) -> Bool {
        switch (a, b) {
        case let (.attribute(x), .attribute(y)) where x.derivationExpression != nil || y.derivationExpression != nil:
            x.type == y.type
        case let (.attribute(x), .attribute(y)): x.versionHash == y.versionHash
        case let (.relationship(x), .relationship(y)): x.versionHash == y.versionHash
        default: false
        }
    }

    /// What differs, field by field.
    func differenceText(from other: HashedProperty, _ names: (this: String, other: String)) -> String {
        var fields: [String] = []
        func compare<T: Equatable>(_ field: String, _ a: T, _ b: T) {
            if a != b { fields.append("\(field) \(a) in \(names.this), \(b) in \(names.other)") }
        }
        switch (self, other) {
        case let (.attribute(x), .attribute(y)):
            compare("type", x.type.xcodeName, y.type.xcodeName)
            compare("optional", x.isOptional, y.isOptional)
            compare("external storage", x.allowsExternalBinaryDataStorage, y.allowsExternalBinaryDataStorage)
            compare("preserved after deletion", x.preservesValueInHistoryOnDeletion, y.preservesValueInHistoryOnDeletion)
            compare("version hash modifier", x.versionHashModifier ?? "none", y.versionHashModifier ?? "none")
        case let (.relationship(x), .relationship(y)):
            compare("destination", x.destination, y.destination)
            compare("inverse", x.inverse ?? "none", y.inverse ?? "none")
            compare("optional", x.isOptional, y.isOptional)
            compare("minimum count", x.minCount, y.minCount)
            compare("maximum count", x.maxCount, y.maxCount)
            compare("ordered", x.isOrdered, y.isOrdered)
            compare("version hash modifier", x.versionHashModifier ?? "none", y.versionHashModifier ?? "none")
        default:
            fields.append("an attribute in one model, a relationship in the other")
        }
        return fields.isEmpty ? "its version hash differs" : fields.joined(separator: "; ")
    }
}
