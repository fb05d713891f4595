import Foundation

/// Reads one `<relationship>` of an Xcode model entity.
struct XcodeRelationshipReader {
    let path: String
    let entity: String

    func read(_ element: ModelXMLElement, warnings: inout [ModelWarning]) throws(ModelFileError) -> RelationshipDescription {
        guard let name = element.nonEmptyText("name") else {
            throw .malformed(path: path, entity: entity, property: nil, reason: "a <relationship> has no name")
        }
        // Xcode refuses to compile a relationship without a destination; so do we.
        guard let destination = element.nonEmptyText("destinationEntity") else {
            throw .malformed(path: path, entity: entity, property: name, reason: "the relationship has no destination entity")
        }
        let toMany = element.flag("toMany")
        var relationship = RelationshipDescription(
            name, to: destination, inverse: element.nonEmptyText("inverseName"),
            toMany: toMany, ordered: toMany && element.flag("ordered"), optional: element.flag("optional"))
        relationship.isTransient = element.flag("transient")
        relationship.versionHashModifier = element.nonEmptyText("versionHashModifier")
        relationship.renamingIdentifier = element.nonEmptyText("elementID")
        relationship.userInfo = element.userInfo
        if let inverseEntity = element.nonEmptyText("inverseEntity"), inverseEntity != destination {
            warnings.append(ModelWarning(entity: entity, property: name, "inverseEntity \(inverseEntity) differs from destinationEntity \(destination); the destination is used"))
        }
        if relationship.inverse == nil, element.nonEmptyText("inverseEntity") != nil {
            warnings.append(ModelWarning(entity: entity, property: name, "inverseEntity is given without an inverseName; no inverse"))
        }
        relationship.minCount = count("minCount", element, name: name, warnings: &warnings) ?? 0
        relationship.maxCount = count("maxCount", element, name: name, warnings: &warnings) ?? (toMany ? 0 : 1)
        if let rule = element.text("deletionRule") {
            if let parsed = DeleteRule(xcodeName: rule) {
                relationship.deleteRule = parsed
            } else {
                warnings.append(ModelWarning(entity: entity, property: name, "unknown deletion rule \"\(rule)\"; Nullify is used"))
            }
        }
        return relationship
    }

    private func count(_ key: String, _ element: ModelXMLElement, name: String, warnings: inout [ModelWarning]) -> Int? {
        guard let text = element.nonEmptyText(key) else { return nil }
        guard let value = Int(text), value >= 0 else {
            warnings.append(ModelWarning(entity: entity, property: name, "\(key) \"\(text)\" is not a count; ignored"))
            return nil
        }
        return value
    }
}
