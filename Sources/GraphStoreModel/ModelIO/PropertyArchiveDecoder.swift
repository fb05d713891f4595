import Foundation

/// Decodes the archived properties of one entity: `NSAttributeDescription` (and its
/// derived-attribute subclass), `NSRelationshipDescription`, `NSFetchedPropertyDescription`.
struct PropertyArchiveDecoder {
    let archive: KeyedArchive
    let entity: String

    /// `NSFlagsKey` bits, confirmed against models whose XML sets the matching options.
    private enum AttributeFlag {
        static let allowsExternalBinaryDataStorage: Int64 = 4
        static let preservesValueInHistoryOnDeletion: Int64 = 16
    }

    // MARK: - Attributes

    func attribute(_ key: String, _ object: ArchivedObject, warnings: inout [ModelWarning]) throws(ModelCacheError) -> AttributeDescription {
        let name = archive.string(object["NSPropertyName"]) ?? key
        let code = archive.integer(object["NSAttributeType"]) ?? 0
        guard let type = AttributeType(rawValue: Int(code)) else {
            throw .malformedArchive(entity: entity, property: name, reason: "unknown attribute type code \(code)")
        }
        var attribute = AttributeDescription(name, type, optional: archive.flag(object["NSIsOptional"]))
        attribute.isTransient = archive.flag(object["NSIsTransient"])
        attribute.isIndexed = archive.flag(object["NSIsIndexed"])
        let flags = archive.integer(object["NSFlagsKey"]) ?? 0
        attribute.allowsExternalBinaryDataStorage = flags & AttributeFlag.allowsExternalBinaryDataStorage != 0
        attribute.preservesValueInHistoryOnDeletion = flags & AttributeFlag.preservesValueInHistoryOnDeletion != 0
        attribute.valueTransformerName = archive.string(object["NSValueTransformerName"])
        attribute.valueClassName = customClassName(archive.string(object["NSAttributeValueClassName"]), type: type)
        attribute.versionHashModifier = archive.string(object["NSVersionHashModifier"])
        attribute.renamingIdentifier = renamingIdentifier(object, name: name)
        attribute.userInfo = archive.stringDictionary(object["NSUserInfo"])
        if let value = object["NSDefaultValue"], archive.resolve(value) != .null {
            attribute.defaultValue = defaultValue(value, type: type)
            if attribute.defaultValue == nil {
                warnings.append(ModelWarning(entity: entity, property: name, "default value \(archive.plainText(value)) does not fit type \(type.xcodeName); no default"))
            }
        }
        if object.isKind(of: "NSDerivedAttributeDescription") {
            attribute.derivationExpression = derivation(object)
            if attribute.derivationExpression == nil {
                warnings.append(ModelWarning(entity: entity, property: name, "the derivation expression could not be read; read as a plain attribute"))
            }
        }
        let predicates = archive.array(object["NSValidationPredicates"]) ?? []
        for leftover in ValidationPredicateReader(archive: archive).apply(predicates, to: &attribute) {
            warnings.append(ModelWarning(entity: entity, property: name, "validation predicate \(leftover) has no equivalent in the model; it is not enforced"))
        }
        return attribute
    }

    /// The value class is archived for every attribute; only a non-default one (a
    /// transformable's class, Xcode's `customClassName`) carries information.
    private func customClassName(_ name: String?, type: AttributeType) -> String? {
        guard let name else { return nil }
        let standard: [AttributeType: String] = [
            .integer16: "NSNumber", .integer32: "NSNumber", .integer64: "NSNumber", .double: "NSNumber",
            .float: "NSNumber", .boolean: "NSNumber", .decimal: "NSDecimalNumber", .string: "NSString",
            .date: "NSDate", .binaryData: "NSData", .uuid: "NSUUID", .uri: "NSURL",
        ]
        return standard[type] == name ? nil : name
    }

    private func defaultValue(_ value: ArchiveValue, type: AttributeType) -> AttributeValue? {
        switch type {
        case .integer16, .integer32, .integer64:
            return archive.integer(value).map { .integer($0) } ?? archive.string(value).flatMap { DefaultValueParser.value($0, for: type) }
        case .boolean:
            return archive.resolve(value).bool.map { .bool($0) } ?? archive.string(value).flatMap { DefaultValueParser.value($0, for: type) }
        case .double, .float:
            return archive.number(value).map { .double($0) } ?? archive.string(value).flatMap { DefaultValueParser.value($0, for: type) }
        case .decimal:
            return archive.decimal(value).map { .decimal($0) } ?? archive.string(value).flatMap { DefaultValueParser.value($0, for: type) }
        case .string:
            return archive.string(value).map { .string($0) }
        case .date:
            return archive.date(value).map { .date($0) } ?? archive.number(value).map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case .uuid:
            return archive.uuid(value).map { .uuid($0) } ?? archive.string(value).flatMap { DefaultValueParser.value($0, for: type) }
        case .uri:
            return archive.url(value).map { .uri($0) } ?? archive.string(value).flatMap { DefaultValueParser.value($0, for: type) }
        case .binaryData, .transformable:
            return archive.data(value).map { .data($0) }
        case .undefined, .objectID, .composite:
            return nil
        }
    }

    /// A derived attribute's expression: the first archived `NSExpression` among its fields
    /// (the key name is not documented; the class is).
    private func derivation(_ object: ArchivedObject) -> String? {
        let formatter = ArchivedPredicateFormatter(archive: archive)
        for key in object.fields.keys.sorted() where key != "$class" && key != "NSEntity" {
            guard let value = object[key], let candidate = archive.object(value), candidate.classes.contains(where: { $0.hasSuffix("Expression") }) else {
                continue
            }
            if let text = formatter.expression(value) { return text }
        }
        return nil
    }

    // MARK: - Relationships

    func relationship(_ key: String, _ object: ArchivedObject, warnings: inout [ModelWarning]) throws(ModelCacheError) -> RelationshipDescription {
        let name = archive.string(object["NSPropertyName"]) ?? key
        let destinationObject = object["NSDestinationEntity"].flatMap { archive.object($0) }
        guard let destination = archive.string(object["_NSDestinationEntityName"]) ?? destinationObject.flatMap({ archive.string($0["NSEntityName"]) }) else {
            throw .malformedArchive(entity: entity, property: name, reason: "the relationship has no destination entity")
        }
        let inverseObject = object["NSInverseRelationship"].flatMap { archive.object($0) }
        let inverse = archive.string(object["_NSInverseRelationshipName"]) ?? inverseObject.flatMap { archive.string($0["NSPropertyName"]) }
        let maxCount = Int(archive.integer(object["NSMaxCount"]) ?? 1)
        // Core Data's rule: a relationship is to-many unless its maximum count is 1.
        let toMany = maxCount != 1
        var relationship = RelationshipDescription(
            name, to: destination, inverse: inverse, toMany: toMany,
            ordered: toMany && archive.flag(object["NSIsOrdered"]), optional: archive.flag(object["NSIsOptional"]))
        relationship.minCount = Int(archive.integer(object["NSMinCount"]) ?? 0)
        relationship.maxCount = maxCount
        relationship.isTransient = archive.flag(object["NSIsTransient"])
        relationship.versionHashModifier = archive.string(object["NSVersionHashModifier"])
        relationship.renamingIdentifier = renamingIdentifier(object, name: name)
        relationship.userInfo = archive.stringDictionary(object["NSUserInfo"])
        let rule = archive.integer(object["NSDeleteRule"]) ?? Int64(DeleteRule.nullify.rawValue)
        if let parsed = DeleteRule(rawValue: Int(rule)) {
            relationship.deleteRule = parsed
        } else {
            warnings.append(ModelWarning(entity: entity, property: name, "unknown delete rule code \(rule); Nullify is used"))
        }
        return relationship
    }

    // MARK: - Fetched properties

    func fetchedProperty(_ key: String, _ object: ArchivedObject, warnings: inout [ModelWarning]) -> FetchedPropertyDescription? {
        let name = archive.string(object["NSPropertyName"]) ?? key
        guard let request = object["NSFetchRequest"].flatMap({ archive.object($0) }),
            let target = request["NSEntity"].flatMap({ archive.object($0) }).flatMap({ archive.string($0["NSEntityName"]) })
                ?? archive.string(request["NSEntityName"])
        else {
            warnings.append(ModelWarning(entity: entity, property: name, "fetched property without a readable fetch request; left out"))
            return nil
        }
        var predicate: String?
        if let archived = request["NSPredicate"], archive.resolve(archived) != .null {
            predicate = ArchivedPredicateFormatter(archive: archive).predicate(archived)
            if predicate == nil { warnings.append(ModelWarning(entity: entity, property: name, "the fetched property's predicate could not be read; it is left out")) }
        }
        let limit = archive.integer(request["NSFetchLimit"]) ?? 0
        return FetchedPropertyDescription(
            name: name, entity: target, predicate: predicate, sortKeys: sortKeys(request["NSSortDescriptors"], property: name, warnings: &warnings),
            fetchLimit: limit > 0 ? Int(clamping: limit) : nil, userInfo: archive.stringDictionary(object["NSUserInfo"]))
    }

    /// The archived fetch request's `NSSortDescriptor`s (`NSKey`, `NSAscending`, `NSSelector`,
    /// as Foundation's coder writes them); a case-insensitive selector sorts case-insensitively.
    /// A descriptor without a key is left out, with a warning.
    private func sortKeys(_ value: ArchiveValue?, property: String, warnings: inout [ModelWarning]) -> [SortKey] {
        guard let value, archive.resolve(value) != .null else { return [] }
        var keys: [SortKey] = []
        for item in archive.array(value) ?? [] {
            guard let descriptor = archive.object(item), let key = archive.string(descriptor["NSKey"]), !key.isEmpty else {
                warnings.append(ModelWarning(entity: entity, property: property, "a sort descriptor of the fetched property without a key was left out"))
                continue
            }
            let selector = archive.string(descriptor["NSSelector"]) ?? "compare:"
            keys.append(SortKey(key, ascending: archive.flag(descriptor["NSAscending"]), caseInsensitive: selector.lowercased().contains("caseinsensitive")))
        }
        return keys
    }

    /// Core Data archives the name itself when no renaming identifier was set.
    private func renamingIdentifier(_ object: ArchivedObject, name: String) -> String? {
        archive.string(object["NSRenamingIdentifier"]).flatMap { $0 == name || $0.isEmpty ? nil : $0 }
    }
}
