import Foundation
@testable import GraphStore

/// Archives a ``ManagedObjectModel`` the way Core Data lays out `Z_MODELCACHE` (newer
/// releases: inherited properties copied into sub-entities, absent false flags), so tests
/// can round-trip models and plant caches in stores.
enum ModelArchiveEncoder {
    static func compressed(_ model: ManagedObjectModel) throws -> Data {
        let (builder, root) = archive(model)
        return try builder.compressed(root: root)
    }

    static func archive(_ model: ManagedObjectModel) -> (ArchiveBuilder, ArchiveBuilder.Ref) {
        let b = ArchiveBuilder()
        let root = b.reserve()
        var entityRefs: [String: ArchiveBuilder.Ref] = [:]
        for entity in model.entities { entityRefs[entity.name] = b.reserve() }
        // Properties are archived once per entity that has them (declared or inherited).
        var propertyRefs: [String: [String: ArchiveBuilder.Ref]] = [:]
        for entity in model.entities {
            for property in model.attributes(of: entity.name).map(\.name) + model.relationships(of: entity.name).map(\.name) {
                propertyRefs[entity.name, default: [:]][property] = b.reserve()
            }
        }
        for entity in model.entities {
            guard let ref = entityRefs[entity.name] else { continue }
            var properties: [(String, ArchiveBuilder.Ref)] = []
            for attribute in model.attributes(of: entity.name) {
                guard let slot = propertyRefs[entity.name]?[attribute.name] else { continue }
                var fields: [String: Any] = [
                    "NSPropertyName": b.string(attribute.name), "NSEntity": ref, "NSAttributeType": attribute.type.rawValue,
                    "NSFlagsKey": (attribute.allowsExternalBinaryDataStorage ? 4 : 0) | (attribute.preservesValueInHistoryOnDeletion ? 16 : 0),
                    "NSRenamingIdentifier": b.string(attribute.renamingIdentifier ?? attribute.name),
                    "NSDefaultValue": defaultValue(attribute.defaultValue, b), "NSValueTransformerName": b.null,
                    "NSAttributeValueClassName": (attribute.valueClassName ?? standardClass[attribute.type]).map(b.string) ?? b.null,
                ]
                if attribute.isOptional { fields["NSIsOptional"] = true }
                if attribute.isTransient { fields["NSIsTransient"] = true }
                if attribute.isIndexed { fields["NSIsIndexed"] = true }
                if let modifier = attribute.versionHashModifier { fields["NSVersionHashModifier"] = b.string(modifier) }
                b.fill(slot, "NSAttributeDescription", supers: ["NSPropertyDescription"], fields)
                properties.append((attribute.name, slot))
            }
            for relationship in model.relationships(of: entity.name) {
                guard let slot = propertyRefs[entity.name]?[relationship.name] else { continue }
                var fields: [String: Any] = [
                    "NSPropertyName": b.string(relationship.name), "NSEntity": ref,
                    "NSDestinationEntity": entityRefs[relationship.destination] ?? b.null,
                    "_NSDestinationEntityName": b.string(relationship.destination),
                    "NSMinCount": relationship.minCount,
                    "NSMaxCount": relationship.isToMany ? relationship.maxCount : 1,
                    "NSDeleteRule": relationship.deleteRule.rawValue,
                    "NSRenamingIdentifier": b.string(relationship.renamingIdentifier ?? relationship.name),
                ]
                if let inverse = relationship.inverse {
                    fields["_NSInverseRelationshipName"] = b.string(inverse)
                    fields["NSInverseRelationship"] = propertyRefs[relationship.destination]?[inverse] ?? b.null
                }
                if relationship.isOptional { fields["NSIsOptional"] = true }
                if relationship.isTransient { fields["NSIsTransient"] = true }
                if relationship.isOrdered { fields["NSIsOrdered"] = true }
                if let modifier = relationship.versionHashModifier { fields["NSVersionHashModifier"] = b.string(modifier) }
                b.fill(slot, "NSRelationshipDescription", supers: ["NSPropertyDescription"], fields)
                properties.append((relationship.name, slot))
            }
            let indexes = entity.fetchIndexes.map { index in
                b.object("NSFetchIndexDescription", [
                    "NSIndexName": b.string(index.name), "NSEntity": ref, "NSPartialIndexPredicate": b.null,
                    "NSIndexElements": b.array(index.elements.map { element in
                        b.object("NSFetchIndexElementDescription", [
                            "NSPropertyName": b.string(element.property), "NSAscending": element.ascending,
                            "NSFetchIndexElementType": element.kind == "RTree" ? 1 : 0,
                        ])
                    }),
                ])
            }
            var fields: [String: Any] = [
                "NSEntityName": b.string(entity.name), "NSManagedObjectModel": root,
                "NSClassNameForEntity": entity.className.map(b.string) ?? b.null,
                "NSSuperentity": entity.parent.flatMap { entityRefs[$0] } ?? b.null,
                "NSRenamingIdentifier": b.string(entity.renamingIdentifier ?? entity.name),
                "NSProperties": b.dictionary(properties, className: "NSMutableDictionary"),
                "NSUniqueTuples": b.array(entity.uniquenessConstraints.map { b.array($0.map(b.string)) }, className: "NSMutableArray"),
                "NSFetchIndexDescriptions": b.array(indexes, className: "NSMutableArray"),
                "NSUserInfo": b.dictionary(entity.userInfo.sorted { $0.key < $1.key }.map { ($0.key, b.string($0.value)) }),
            ]
            if entity.isAbstract { fields["NSIsAbstract"] = true }
            if let modifier = entity.versionHashModifier { fields["NSVersionHashModifier"] = b.string(modifier) }
            b.fill(ref, "NSEntityDescription", fields)
        }
        b.fill(root, "NSManagedObjectModel", [
            "NSEntities": b.knownKeysDictionary(model.entities.map { ($0.name, entityRefs[$0.name] ?? b.null) }),
            "NSVersionIdentifiers": b.array(model.versionIdentifiers.map(b.string), className: "NSSet"),
            "NSFetchRequestTemplates": b.null,
        ])
        return (b, root)
    }

    /// The value class Core Data archives for each type.
    private static let standardClass: [AttributeType: String] = [
        .integer16: "NSNumber", .integer32: "NSNumber", .integer64: "NSNumber", .double: "NSNumber", .float: "NSNumber",
        .boolean: "NSNumber", .decimal: "NSDecimalNumber", .string: "NSString", .date: "NSDate", .binaryData: "NSData",
        .uuid: "NSUUID", .uri: "NSURL",
    ]

    /// The model with each entity's properties in name order, as the decoder lists them.
    static func sortedProperties(_ model: ManagedObjectModel) throws -> ManagedObjectModel {
        var copy = try ManagedObjectModel(
            entities: model.entities.map { entity in
                var sorted = entity
                sorted.attributes.sort { $0.name < $1.name }
                sorted.relationships.sort { $0.name < $1.name }
                return sorted
            },
            versionIdentifiers: model.versionIdentifiers, fetchRequestTemplates: model.fetchRequestTemplates,
            configurations: model.configurations)
        copy.userInfo = model.userInfo
        copy.knownVersionHashes = model.knownVersionHashes
        return copy
    }

    private static func defaultValue(_ value: AttributeValue?, _ b: ArchiveBuilder) -> Any {
        switch value {
        case .integer(let v)?: return b.add(v)
        case .double(let v)?: return b.add(v)
        case .bool(let v)?: return b.add(v)
        case .string(let s)?: return b.string(s)
        case .date(let d)?: return b.object("NSDate", ["NS.time": d.timeIntervalSinceReferenceDate])
        default: return b.null
        }
    }
}
