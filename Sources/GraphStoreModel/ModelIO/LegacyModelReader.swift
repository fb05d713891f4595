import Foundation

/// Reads an Xcode 3 model: the `elements` file, an `NSKeyedArchiver` archive of Xcode's
/// own modelling classes.
///
/// The archive is a small UML graph: an `XDPMModel` whose root package holds `XDPMEntity`
/// objects; an entity owns `XDPMAttribute` and `XDPMRelationship` objects and points to its
/// parent through an `XDUMLGeneralizationImp`. Core Data settings are "tagged values" kept
/// in stereotypes: each element has stereotypes whose owned properties carry a name
/// (`XD_PAttK_attributeType`, `XD_PPSK_isOptional`, `XD_PRK_destination`, ...) and the
/// value in `_default`. Anything that does not fit this shape is reported as
/// ``ModelFileError/legacyFormat(path:reason:)``.
struct LegacyModelReader {
    let path: String

    func read(_ data: Data) throws(ModelFileError) -> ModelDraft {
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(propertyList: data)
        } catch {
            throw .legacyFormat(path: path, reason: "\(error)")
        }
        guard let root = archive.root, root.isKind(of: "XDPMModel") else {
            throw .legacyFormat(path: path, reason: "the archive's root is \(archive.root?.className ?? "missing"), not XDPMModel")
        }
        var draft = ModelDraft()
        let context = LegacyArchive(archive: archive)
        if let identifier = archive.string(root["_modelVersionIdentifier"]) { draft.versionIdentifiers = [identifier] }
        let entityObjects = context.entities(in: root["_xd_rootPackage"])
        guard !entityObjects.isEmpty || root["_xd_rootPackage"] != nil else {
            throw .legacyFormat(path: path, reason: "the model has no root package")
        }
        for object in entityObjects {
            draft.entities.append(try entity(object, context: context, warnings: &draft.warnings))
        }
        for (name, value) in archive.dictionary(root["_configurationsByName"]) ?? [] {
            let members = (archive.object(value).flatMap { archive.array($0["_entities"]) } ?? [])
                .compactMap { archive.object($0).flatMap { archive.string($0["_name"]) } }
            draft.configurations.append(ModelConfiguration(name: name, entities: members.sorted()))
        }
        draft.configurations.sort { $0.name < $1.name }
        // Objects that reuse objects level after level stop the reading early (ArchiveWalkBudget).
        if archive.budget.isSpent {
            throw .legacyFormat(path: path, reason: "its objects reuse objects that reuse objects: reading it takes more than \(archive.budget.limit) steps")
        }
        return draft
    }

    private func entity(_ object: ArchivedObject, context: LegacyArchive, warnings: inout [ModelWarning]) throws(ModelFileError) -> EntityDescription {
        let archive = context.archive
        guard let name = archive.string(object["_name"]), !name.isEmpty else {
            throw .legacyFormat(path: path, reason: "an entity has no name")
        }
        let tags = context.taggedValues(of: object)
        let parent = (archive.array(object["XDBucketForGeneralizationsstorage"]) ?? [])
            .compactMap { archive.object($0) }
            .compactMap { archive.object($0["_general"] ?? .null).flatMap { archive.string($0["_name"]) } }
            .first
        var entity = EntityDescription(name, parent: parent, abstract: archive.flag(tags["XD_PSK_isAbstract"]) || archive.flag(object["_isAbstract"]))
        entity.className = archive.string(tags["XD_PSK_entityClassName"]).flatMap { $0.isEmpty ? nil : $0 }
        entity.versionHashModifier = archive.string(tags["XD_PSK_versionHashModifier"]).flatMap { $0.isEmpty ? nil : $0 }
        entity.renamingIdentifier = archive.string(tags["XD_PSK_elementID"]).flatMap { $0.isEmpty ? nil : $0 }
        entity.userInfo = archive.stringDictionary(tags["XD_PSK_userInfo"])
        for group in archive.array(tags["XDPMCompoundIndexes"]) ?? [] {
            let keys = context.propertyNames(group)
            if !keys.isEmpty { entity.fetchIndexes.append(FetchIndex(keys.joined(separator: "_"), keys)) }
        }
        for group in archive.array(tags["XDPMUniquenessConstraints"]) ?? [] {
            let keys = context.propertyNames(group)
            if !keys.isEmpty { entity.uniquenessConstraints.append(keys) }
        }
        let properties = (archive.dictionary(object["XDBucketForOwnedAttributesstorage"]) ?? []).sorted { $0.key < $1.key }
        for (key, value) in properties {
            guard let property = archive.object(value) else {
                throw .legacyFormat(path: path, reason: "entity \(name): property \(key) is not an object")
            }
            let propertyTags = context.taggedValues(of: property)
            if property.isKind(of: "XDPMAttribute") {
                entity.attributes.append(try attribute(key, propertyTags, entity: name, context: context, warnings: &warnings))
            } else if property.isKind(of: "XDPMRelationship") {
                entity.relationships.append(try relationship(key, propertyTags, entity: name, context: context, warnings: &warnings))
            } else {
                warnings.append(ModelWarning(entity: name, property: key, "legacy property of kind \(property.className) is not supported; left out"))
            }
        }
        return entity
    }

    private func attribute(
        _ name: String, _ tags: [String: ArchiveValue], entity: String, context: LegacyArchive, warnings: inout [ModelWarning]
    ) throws(ModelFileError) -> AttributeDescription {
        let archive = context.archive
        let code = archive.integer(tags["XD_PAttK_attributeType"]) ?? 0
        guard let type = AttributeType(rawValue: Int(code)) else {
            throw .legacyFormat(path: path, reason: "\(entity).\(name): unknown attribute type code \(code)")
        }
        var attribute = context.propertyBasics(AttributeDescription(name, type, optional: archive.flag(tags["XD_PPSK_isOptional"])), tags)
        attribute.isTransient = archive.flag(tags["XD_PPSK_isTransient"])
        attribute.isIndexed = archive.flag(tags["XD_PPSK_isIndexed"])
        attribute.allowsExternalBinaryDataStorage = archive.flag(tags["XD_PAttK_allowsExternalBinaryDataStorage"])
        attribute.valueTransformerName = context.text(tags["XD_PAttK_valueTransformerName"])
        attribute.regularExpression = context.text(tags["XD_PAttK_regularExpressionString"])
        if let text = context.text(tags["XD_PAttK_defaultValueAsString"]) {
            if let value = DefaultValueParser.value(text, for: type) {
                attribute.defaultValue = value
            } else {
                warnings.append(ModelWarning(entity: entity, property: name, "default value \"\(text)\" does not fit type \(type.xcodeName); no default"))
            }
        }
        let minimum = context.text(tags["XD_PAttK_minValueString"])
        let maximum = context.text(tags["XD_PAttK_maxValueString"])
        switch type {
        case .string, .binaryData:
            attribute.minLength = minimum.flatMap { Int($0) }
            attribute.maxLength = maximum.flatMap { Int($0) }
        case let numeric where numeric.isNumeric:
            attribute.minValue = minimum.flatMap { Double($0) }
            attribute.maxValue = maximum.flatMap { Double($0) }
        default:
            if minimum != nil || maximum != nil {
                warnings.append(ModelWarning(entity: entity, property: name, "bounds of a \(type.xcodeName) attribute in a legacy model are not read"))
            }
        }
        return attribute
    }

    private func relationship(
        _ name: String, _ tags: [String: ArchiveValue], entity: String, context: LegacyArchive, warnings: inout [ModelWarning]
    ) throws(ModelFileError) -> RelationshipDescription {
        let archive = context.archive
        guard let destination = tags["XD_PRK_destination"].flatMap({ archive.object($0) }).flatMap({ archive.string($0["_name"]) }) else {
            throw .legacyFormat(path: path, reason: "\(entity).\(name): the relationship has no destination entity")
        }
        let inverse = tags["XD_PRK_inverseRelationship"].flatMap { archive.object($0) }.flatMap { archive.string($0["_name"]) }
        let toMany = archive.flag(tags["XD_PRK_isToMany"])
        var relationship = context.propertyBasics(
            RelationshipDescription(
                name, to: destination, inverse: inverse, toMany: toMany,
                ordered: toMany && archive.flag(tags["XD_PRK_ordered"]), optional: archive.flag(tags["XD_PPSK_isOptional"])),
            tags)
        relationship.isTransient = archive.flag(tags["XD_PPSK_isTransient"])
        relationship.minCount = Int(archive.integer(tags["XD_PRK_minCount"]) ?? 0)
        relationship.maxCount = Int(archive.integer(tags["XD_PRK_maxCount"]) ?? (toMany ? 0 : 1))
        let rule = archive.integer(tags["XD_PRK_deleteRule"]) ?? Int64(DeleteRule.nullify.rawValue)
        if let parsed = DeleteRule(rawValue: Int(rule)) {
            relationship.deleteRule = parsed
        } else {
            warnings.append(ModelWarning(entity: entity, property: name, "unknown delete rule code \(rule); Nullify is used"))
        }
        return relationship
    }
}

/// Lookups in a legacy archive: entities of a package, tagged values of an element.
private struct LegacyArchive {
    let archive: KeyedArchive

    /// The entities of a package and of its nested packages, by name.
    func entities(in package: ArchiveValue?, depth: Int = 0) -> [ArchivedObject] {
        guard depth < 32, let package, let object = archive.object(package) else { return [] }
        var found = (archive.dictionary(object["XDBucketForClassesstorage"]) ?? [])
            .sorted { $0.key < $1.key }
            .compactMap { archive.object($0.value) }
            .filter { $0.isKind(of: "XDPMEntity") }
        for (_, nested) in archive.dictionary(object["XDBucketForPackagesstorage"]) ?? [] {
            found += entities(in: nested, depth: depth + 1)
        }
        return found
    }

    /// Every tagged value of an element: stereotype → owned property name → `_default`.
    func taggedValues(of element: ArchivedObject) -> [String: ArchiveValue] {
        var values: [String: ArchiveValue] = [:]
        for (_, stereotype) in archive.dictionary(element["XDBucketForStereotypesstorage"]) ?? [] {
            guard let stereotype = archive.object(stereotype) else { continue }
            for (key, property) in archive.dictionary(stereotype["XDBucketForOwnedAttributesstorage"]) ?? [] {
                guard let property = archive.object(property) else { continue }
                values[key] = property["_default"] ?? .null
            }
        }
        return values
    }

    /// A non-empty string tagged value.
    func text(_ value: ArchiveValue?) -> String? {
        guard let text = archive.string(value), !text.isEmpty else { return nil }
        return text
    }

    /// Property names of a compound index or uniqueness constraint: names or property objects.
    func propertyNames(_ group: ArchiveValue) -> [String] {
        (archive.array(group) ?? []).compactMap { item in
            archive.string(item) ?? archive.object(item).flatMap { archive.string($0["_name"]) }
        }
    }

    func propertyBasics(_ attribute: AttributeDescription, _ tags: [String: ArchiveValue]) -> AttributeDescription {
        var copy = attribute
        copy.versionHashModifier = text(tags["XD_PPSK_versionHashModifier"])
        copy.renamingIdentifier = text(tags["XD_PPSK_elementID"])
        copy.userInfo = archive.stringDictionary(tags["XD_PPSK_userInfo"])
        return copy
    }

    func propertyBasics(_ relationship: RelationshipDescription, _ tags: [String: ArchiveValue]) -> RelationshipDescription {
        var copy = relationship
        copy.versionHashModifier = text(tags["XD_PPSK_versionHashModifier"])
        copy.renamingIdentifier = text(tags["XD_PPSK_elementID"])
        copy.userInfo = archive.stringDictionary(tags["XD_PPSK_userInfo"])
        return copy
    }
}
