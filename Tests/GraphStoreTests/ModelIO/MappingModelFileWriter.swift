import Foundation
@testable import GraphStore

/// Writes a mapping model as Xcode's `xcmapping.xml`: a Core Data XML store of `XDDev…`
/// objects, with the source and destination model snapshots archived as Xcode archives
/// them (`XDPMModel`, `XDPMEntity`, properties whose Core Data settings are tagged values of
/// a stereotype), the layout of the files in the corpus.
///
/// It makes the examples' mapping models, which a test then reads as any other. Value
/// expressions are not written: a property mapping either is generated (the property of
/// the same name) or, for a relationship, names its source key path and the mapping that
/// made the destinations, as Xcode writes them.
enum MappingModelFileWriter {
    /// The `xcmapping.xml` text of `mapping`, whose snapshots must be set.
    static func xml(_ mapping: MappingModel, uuid: UUID) throws -> String {
        guard let source = mapping.sourceModel, let destination = mapping.destinationModel else {
            throw WriterError("a mapping model is written with both model snapshots")
        }
        var objects: [String] = []
        var next = 101
        func id() -> String { defer { next += 1 }; return "z\(next)" }
        let modelID = id()
        var entityIDs: [String] = []
        for (number, entity) in mapping.entityMappings.enumerated() {
            let entityID = id()
            entityIDs.append(entityID)
            var attributeIDs: [String] = []
            var relationshipIDs: [String] = []
            for property in entity.attributeMappings {
                guard property.valueExpression == nil else { throw WriterError("\(entity.name).\(property.name): value expressions are not written") }
                let propertyID = id()
                attributeIDs.append(propertyID)
                objects.append(object("XDDEVATTRIBUTEMAPPING", propertyID, [("name", "string", escaped(property.name))],
                    [("entitymapping", "1/1", "XDDEVENTITYMAPPING", [entityID])]))
            }
            for property in entity.relationshipMappings {
                guard property.valueExpression == nil else { throw WriterError("\(entity.name).\(property.name): value expressions are not written") }
                let propertyID = id()
                relationshipIDs.append(propertyID)
                var attributes = [("autogenerateexpression", "bool", "1"), ("name", "string", escaped(property.name))]
                if let path = property.sourceKeyPath { attributes.append(("sourcekeypath", "string", escaped(path))) }
                if let name = property.sourceMappingName { attributes.append(("sourcemappingname", "string", escaped(name))) }
                objects.append(object("XDDEVRELATIONSHIPMAPPING", propertyID, attributes, [("entitymapping", "1/1", "XDDEVENTITYMAPPING", [entityID])]))
            }
            var attributes: [(String, String, String)] = []
            if let name = entity.sourceEntity { attributes.append(("sourcename", "string", escaped(name))) }
            if let name = entity.destinationEntity { attributes.append(("destinationname", "string", escaped(name))) }
            attributes.append(("mappingtypename", "string", "Undefined"))
            attributes.append(("mappingnumber", "int16", "\(number + 1)"))
            if let policy = entity.policyClassName { attributes.append(("migrationpolicyclassname", "string", escaped(policy))) }
            if let filter = entity.sourceFilter { attributes.append(("sourcefilterpredicatestring", "string", escaped(filter))) }
            attributes.append(("autogenerateexpression", "bool", "1"))
            objects.append(object("XDDEVENTITYMAPPING", entityID, attributes, [
                ("mappingmodel", "1/1", "XDDEVMAPPINGMODEL", [modelID]),
                ("attributemappings", "0/0", "XDDEVATTRIBUTEMAPPING", attributeIDs),
                ("relationshipmappings", "0/0", "XDDEVRELATIONSHIPMAPPING", relationshipIDs),
            ]))
        }
        objects.insert(object("XDDEVMAPPINGMODEL", modelID, [
            ("sourcemodelpath", "string", escaped(mapping.sourceModelPath ?? "")),
            ("sourcemodeldata", "binary", try LegacyModelArchive.encoded(source).base64EncodedString(options: .lineLength76Characters)),
            ("destinationmodelpath", "string", escaped(mapping.destinationModelPath ?? "")),
            ("destinationmodeldata", "binary", try LegacyModelArchive.encoded(destination).base64EncodedString(options: .lineLength76Characters)),
        ], [("entitymappings", "0/0", "XDDEVENTITYMAPPING", entityIDs)]), at: 0)
        return """
            <?xml version="1.0" standalone="yes"?>
            <!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">
            <database>
                <databaseInfo>
                    <version>134481920</version>
                    <UUID>\(uuid.uuidString)</UUID>
                    <nextObjectID>\(next)</nextObjectID>
                </databaseInfo>
            \(objects.joined(separator: "\n"))
            </database>

            """
    }

    private static func object(
        _ type: String, _ id: String, _ attributes: [(String, String, String)], _ relationships: [(String, String, String, [String])]
    ) -> String {
        var lines = ["    <object type=\"\(type)\" id=\"\(id)\">"]
        for (name, kind, text) in attributes {
            lines.append("        <attribute name=\"\(name)\" type=\"\(kind)\">\(text)</attribute>")
        }
        for (name, kind, destination, ids) in relationships {
            lines.append("        <relationship name=\"\(name)\" type=\"\(kind)\" destination=\"\(destination)\" idrefs=\"\(ids.joined(separator: " "))\"></relationship>")
        }
        lines.append("    </object>")
        return lines.joined(separator: "\n")
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    struct WriterError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

/// A model archived as Xcode 3 and Xcode's mapping model snapshots archive it (what
/// ``LegacyModelReader`` reads).
enum LegacyModelArchive {
    static func encoded(_ model: ManagedObjectModel) throws -> Data {
        let builder = ArchiveBuilder()
        let entityRefs = Dictionary(model.entities.map { ($0.name, builder.reserve()) }, uniquingKeysWith: { a, _ in a })
        var relationshipRefs: [String: ArchiveBuilder.Ref] = [:]
        for entity in model.entities {
            for relationship in entity.relationships { relationshipRefs["\(entity.name).\(relationship.name)"] = builder.reserve() }
        }
        for entity in model.entities {
            guard let ref = entityRefs[entity.name] else { continue }
            var tags: [(String, ArchiveBuilder.Ref)] = [("XD_PSK_isAbstract", builder.add(entity.isAbstract))]
            if let name = entity.className { tags.append(("XD_PSK_entityClassName", builder.string(name))) }
            if let modifier = entity.versionHashModifier { tags.append(("XD_PSK_versionHashModifier", builder.string(modifier))) }
            if let identifier = entity.renamingIdentifier { tags.append(("XD_PSK_elementID", builder.string(identifier))) }
            if !entity.uniquenessConstraints.isEmpty {
                tags.append(("XDPMUniquenessConstraints", builder.array(entity.uniquenessConstraints.map { keys in builder.array(keys.map(builder.string)) })))
            }
            var properties: [(String, ArchiveBuilder.Ref)] = []
            for attribute in entity.attributes {
                properties.append((attribute.name, builder.object("XDPMAttribute", supers: ["XDUMLPropertyImp"], [
                    "_name": builder.string(attribute.name), "XDBucketForStereotypesstorage": stereotypes(attributeTags(attribute, builder), builder),
                ])))
            }
            for relationship in entity.relationships {
                guard let relationshipRef = relationshipRefs["\(entity.name).\(relationship.name)"], let destination = entityRefs[relationship.destination] else {
                    throw MappingModelFileWriter.WriterError("\(entity.name).\(relationship.name): no destination entity \(relationship.destination)")
                }
                var tags: [(String, ArchiveBuilder.Ref)] = [
                    ("XD_PRK_destination", destination), ("XD_PRK_isToMany", builder.add(relationship.isToMany)),
                    ("XD_PRK_ordered", builder.add(relationship.isOrdered)), ("XD_PPSK_isOptional", builder.add(relationship.isOptional)),
                    ("XD_PPSK_isTransient", builder.add(relationship.isTransient)), ("XD_PRK_minCount", builder.add(relationship.minCount)),
                    ("XD_PRK_maxCount", builder.add(relationship.maxCount)), ("XD_PRK_deleteRule", builder.add(relationship.deleteRule.rawValue)),
                ]
                if let inverse = relationship.inverse, let inverseRef = relationshipRefs["\(relationship.destination).\(inverse)"] {
                    tags.append(("XD_PRK_inverseRelationship", inverseRef))
                }
                if let identifier = relationship.renamingIdentifier { tags.append(("XD_PPSK_elementID", builder.string(identifier))) }
                if let modifier = relationship.versionHashModifier { tags.append(("XD_PPSK_versionHashModifier", builder.string(modifier))) }
                builder.fill(relationshipRef, "XDPMRelationship", supers: ["XDUMLPropertyImp"], [
                    "_name": builder.string(relationship.name), "XDBucketForStereotypesstorage": stereotypes(tags, builder),
                ])
                properties.append((relationship.name, relationshipRef))
            }
            var fields: [String: Any] = [
                "_name": builder.string(entity.name), "_isAbstract": entity.isAbstract,
                "XDBucketForStereotypesstorage": stereotypes(tags, builder),
                "XDBucketForOwnedAttributesstorage": builder.dictionary(properties, className: "NSMutableDictionary"),
            ]
            if let parent = entity.parent.flatMap({ entityRefs[$0] }) {
                fields["XDBucketForGeneralizationsstorage"] = builder.array(
                    [builder.object("XDUMLGeneralizationImp", ["_general": parent])], className: "NSMutableArray")
            }
            builder.fill(ref, "XDPMEntity", supers: ["XDUMLClassImp"], fields)
        }
        let classes = builder.dictionary(model.entities.compactMap { entity in entityRefs[entity.name].map { (entity.name, $0) } }, className: "NSMutableDictionary")
        let package = builder.object("XDModelPackage", ["_name": builder.string("model"), "XDBucketForClassesstorage": classes])
        let root = builder.object("XDPMModel", ["_xd_rootPackage": package, "_configurationsByName": builder.dictionary([], className: "NSMutableDictionary")])
        return try builder.encoded(root: root)
    }

    private static func attributeTags(_ attribute: AttributeDescription, _ builder: ArchiveBuilder) -> [(String, ArchiveBuilder.Ref)] {
        var tags: [(String, ArchiveBuilder.Ref)] = [
            ("XD_PAttK_attributeType", builder.add(attribute.type.rawValue)), ("XD_PPSK_isOptional", builder.add(attribute.isOptional)),
            ("XD_PPSK_isTransient", builder.add(attribute.isTransient)), ("XD_PPSK_isIndexed", builder.add(attribute.isIndexed)),
            ("XD_PAttK_allowsExternalBinaryDataStorage", builder.add(attribute.allowsExternalBinaryDataStorage)),
        ]
        if let text = attribute.defaultValue.flatMap(defaultText) { tags.append(("XD_PAttK_defaultValueAsString", builder.string(text))) }
        if let identifier = attribute.renamingIdentifier { tags.append(("XD_PPSK_elementID", builder.string(identifier))) }
        if let modifier = attribute.versionHashModifier { tags.append(("XD_PPSK_versionHashModifier", builder.string(modifier))) }
        return tags
    }

    /// A default value as Xcode writes it (numbers, text, Booleans as YES/NO).
    private static func defaultText(_ value: AttributeValue) -> String? {
        switch value {
        case .integer(let number): "\(number)"
        case .double(let number): "\(number)"
        case .string(let text): text
        case .bool(let flag): flag ? "YES" : "NO"
        default: nil
        }
    }

    /// One stereotype holding the tagged values, each an owned property with its `_default`.
    private static func stereotypes(_ tags: [(String, ArchiveBuilder.Ref)], _ builder: ArchiveBuilder) -> ArchiveBuilder.Ref {
        let owned = tags.map { key, value in (key, builder.object("XDUMLPropertyImp", ["_name": builder.string(key), "_default": value])) }
        let stereotype = builder.object("XDUMLStereotypeImp", [
            "_name": builder.string("XD_PStereotype"), "XDBucketForOwnedAttributesstorage": builder.dictionary(owned, className: "NSMutableDictionary"),
        ])
        return builder.dictionary([("XD_PStereotype", stereotype)], className: "NSMutableDictionary")
    }
}
