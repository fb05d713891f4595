import Foundation

/// Reads one `<entity>` of an Xcode model: its flags, properties, uniqueness
/// constraints, fetch indexes (and legacy compound indexes, read as fetch indexes).
struct XcodeEntityReader {
    let path: String

    func read(_ element: ModelXMLElement, warnings: inout [ModelWarning]) throws(ModelFileError) -> EntityDescription {
        guard let name = element.nonEmptyText("name") else {
            throw .malformed(path: path, entity: nil, property: nil, reason: "an <entity> has no name")
        }
        var entity = EntityDescription(name, parent: element.nonEmptyText("parentEntity"), abstract: element.flag("isAbstract"))
        entity.className = element.nonEmptyText("representedClassName")
        entity.codeGeneration = element.nonEmptyText("codeGenerationType").flatMap(CodeGeneration.init(rawValue:))
        entity.versionHashModifier = element.nonEmptyText("versionHashModifier")
        // Xcode stores the renaming identifier as elementID (a hand-written
        // renamingIdentifier attribute is ignored by Xcode's compiler too).
        entity.renamingIdentifier = element.nonEmptyText("elementID")
        entity.userInfo = element.userInfo
        let attributes = XcodeAttributeReader(path: path, entity: name)
        let relationships = XcodeRelationshipReader(path: path, entity: name)
        for child in element.children {
            switch child.name {
            case "attribute":
                entity.attributes.append(try attributes.read(child, warnings: &warnings))
            case "relationship":
                entity.relationships.append(try relationships.read(child, warnings: &warnings))
            case "fetchedProperty":
                if let fetched = fetchedProperty(child, entity: name, warnings: &warnings) { entity.fetchedProperties.append(fetched) }
            case "uniquenessConstraints":
                for constraint in child.children(named: "uniquenessConstraint") {
                    let keys = constraint.children(named: "constraint").compactMap { $0.nonEmptyText("value") }
                    if !keys.isEmpty { entity.uniquenessConstraints.append(keys) }
                }
            case "fetchIndex":
                entity.fetchIndexes.append(fetchIndex(child, entity: name, warnings: &warnings))
            case "compoundIndexes":
                for compound in child.children(named: "compoundIndex") {
                    let keys = compound.children(named: "index").compactMap { $0.nonEmptyText("value") }
                    guard !keys.isEmpty else { continue }
                    // Core Data turns a compound index into a fetch index named after its
                    // properties joined by "_" (seen as Z_Conversation_internalIsArchived_lastModifiedDate).
                    let fetchIndex = FetchIndex(keys.joined(separator: "_"), keys)
                    if !entity.fetchIndexes.contains(where: { $0.name == fetchIndex.name || $0.elements == fetchIndex.elements }) {
                        entity.fetchIndexes.append(fetchIndex)
                    }
                }
            default:
                continue
            }
        }
        return entity
    }

    private func fetchedProperty(_ element: ModelXMLElement, entity: String, warnings: inout [ModelWarning]) -> FetchedPropertyDescription? {
        let name = element.nonEmptyText("name")
        guard let name, let request = element.children(named: "fetchRequest").first, let target = request.nonEmptyText("entity") else {
            warnings.append(ModelWarning(entity: entity, property: name, "a fetched property without a name or fetch request entity was left out"))
            return nil
        }
        return FetchedPropertyDescription(
            name: name, entity: target, predicate: request.nonEmptyText("predicateString"), userInfo: element.userInfo)
    }

    private func fetchIndex(_ element: ModelXMLElement, entity: String, warnings: inout [ModelWarning]) -> FetchIndex {
        var elements: [FetchIndex.Element] = []
        for item in element.children(named: "fetchIndexElement") {
            guard let property = item.nonEmptyText("property") else {
                warnings.append(ModelWarning(entity: entity, property: element.text("name"), "a fetch index element without a property was left out"))
                continue
            }
            let ascending = item.text("order").map { $0.lowercased() != "descending" } ?? true
            elements.append(FetchIndex.Element(property, ascending: ascending, kind: item.nonEmptyText("type") ?? "Binary"))
        }
        var name = element.nonEmptyText("name") ?? ""
        if name.isEmpty {
            name = elements.map(\.property).joined(separator: "_")
            warnings.append(ModelWarning(entity: entity, property: name, "a fetch index without a name is named after its properties"))
        }
        return FetchIndex(name, elements: elements, partialIndexPredicate: element.nonEmptyText("partialIndexPredicate"))
    }
}
