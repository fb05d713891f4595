import Foundation

/// Turns a keyed archive of an `NSManagedObjectModel` (a `Z_MODELCACHE` payload or a
/// compiled `.mom`) into a ``ModelDraft``.
///
/// Archive vocabulary (see `coredata-format.md` §3.4): the model has `NSEntities` (a
/// `NSKnownKeysDictionary1` of entity name to `NSEntityDescription`), `NSVersionIdentifiers`,
/// `NSFetchRequestTemplates`, `NSConfigurations`. An entity has `NSEntityName`,
/// `NSSuperentity`, `NSIsAbstract`, `NSClassNameForEntity`, `NSProperties`,
/// `NSUniqueTuples`, `NSFetchIndexDescriptions`, `NSCompoundIndexes`, ...
///
/// A sub-entity's `NSProperties` also lists every inherited property (as a copy, or in
/// older releases as an `_NSPropertyDescriptionProxy`), so an entity's own properties are
/// its keys minus its parent's keys. Archivers omit false flags (`NSIsOptional`,
/// `NSIsTransient`, `NSIsOrdered`, ...), so an absent flag is false.
struct ModelArchiveDecoder {
    let archive: KeyedArchive

    func decode() throws(ModelCacheError) -> ModelDraft {
        guard let root = archive.root else { throw .malformedArchive(entity: nil, property: nil, reason: "the archive has no root object") }
        guard root.isKind(of: "NSManagedObjectModel") else {
            throw .malformedArchive(entity: nil, property: nil, reason: "the archived root is \(root.className), not NSManagedObjectModel")
        }
        guard let entries = archive.dictionary(root["NSEntities"]) else {
            throw .malformedArchive(entity: nil, property: nil, reason: "the model has no NSEntities dictionary")
        }
        var draft = ModelDraft()
        var objects: [(name: String, object: ArchivedObject)] = []
        for (key, value) in entries {
            guard let object = archive.object(value), object.isKind(of: "NSEntityDescription") else {
                throw .malformedArchive(entity: key, property: nil, reason: "the entry is not an NSEntityDescription")
            }
            objects.append((archive.string(object["NSEntityName"]) ?? key, object))
        }
        let propertyKeys = Dictionary(objects.map { ($0.name, Set(propertyEntries(of: $0.object).map(\.key))) }, uniquingKeysWith: { a, _ in a })
        for (name, object) in objects {
            try checkBudget()
            draft.entities.append(try entity(name, object, propertyKeys: propertyKeys, warnings: &draft.warnings))
        }
        removeInheritedConstraints(from: &draft.entities)
        draft.versionIdentifiers = (archive.array(root["NSVersionIdentifiers"]) ?? []).compactMap { archive.string($0) }.sorted()
        draft.userInfo = archive.stringDictionary(root["NSUserInfo"])
        draft.fetchRequestTemplates = fetchRequestTemplates(root["NSFetchRequestTemplates"], warnings: &draft.warnings)
        draft.configurations = (archive.dictionary(root["NSConfigurations"]) ?? []).map { name, members in
            ModelConfiguration(name: name, entities: (archive.array(members) ?? []).compactMap(entityName).sorted())
        }.sorted { $0.name < $1.name }
        try checkBudget()
        return draft
    }

    /// Refuses an archive whose objects reuse one another so deeply that reading it took
    /// more steps than its size allows (see ``ArchiveWalkBudget``).
    private func checkBudget() throws(ModelCacheError) {
        guard archive.budget.isSpent else { return }
        throw .malformedArchive(
            entity: nil, property: nil,
            reason: "its objects reuse objects that reuse objects: reading it takes more than \(archive.budget.limit) steps, a few per byte")
    }

    // MARK: - Entities

    private func entity(
        _ name: String, _ object: ArchivedObject, propertyKeys: [String: Set<String>], warnings: inout [ModelWarning]
    ) throws(ModelCacheError) -> EntityDescription {
        let parent = object["NSSuperentity"].flatMap(entityName)
        var entity = EntityDescription(name, parent: parent, abstract: archive.flag(object["NSIsAbstract"]))
        entity.className = archive.string(object["NSClassNameForEntity"])
        entity.versionHashModifier = archive.string(object["NSVersionHashModifier"])
        // Core Data archives the name itself as the renaming identifier when none was set.
        entity.renamingIdentifier = archive.string(object["NSRenamingIdentifier"]).flatMap { $0 == name ? nil : $0 }
        entity.userInfo = archive.stringDictionary(object["NSUserInfo"])
        let inherited = parent.flatMap { propertyKeys[$0] } ?? []
        let properties = PropertyArchiveDecoder(archive: archive, entity: name)
        for (key, value) in propertyEntries(of: object).sorted(by: { $0.key < $1.key }) where !inherited.contains(key) {
            guard var property = archive.object(value) else {
                throw .malformedArchive(entity: name, property: key, reason: "the property is not an archived object")
            }
            if property.className == "_NSPropertyDescriptionProxy", let underlying = property["NSUnderlyingProperty"].flatMap({ archive.object($0) }) {
                property = underlying
            }
            if property.isKind(of: "NSAttributeDescription") {
                entity.attributes.append(try properties.attribute(key, property, warnings: &warnings))
            } else if property.isKind(of: "NSRelationshipDescription") {
                entity.relationships.append(try properties.relationship(key, property, warnings: &warnings))
            } else if property.isKind(of: "NSFetchedPropertyDescription") {
                if let fetched = properties.fetchedProperty(key, property, warnings: &warnings) { entity.fetchedProperties.append(fetched) }
            } else {
                warnings.append(ModelWarning(entity: name, property: key, "property of class \(property.className) is not supported; left out"))
            }
        }
        entity.uniquenessConstraints = (archive.array(object["NSUniqueTuples"]) ?? []).map(propertyNames).filter { !$0.isEmpty }
        if object["NSFetchIndexDescriptions"] != nil {
            // Fetch indexes subsume compound indexes and indexed attributes: Core Data lists
            // those as fetch indexes too, so NSCompoundIndexes is derived here.
            entity.fetchIndexes = (archive.array(object["NSFetchIndexDescriptions"]) ?? []).compactMap { fetchIndex($0, entity: name, warnings: &warnings) }
        } else {
            entity.fetchIndexes = (archive.array(object["NSCompoundIndexes"]) ?? []).map(propertyNames).filter { !$0.isEmpty }
                .map { FetchIndex($0.joined(separator: "_"), $0) }
        }
        return entity
    }

    /// A sub-entity may list its ancestors' uniqueness constraints again; they already apply
    /// to the ancestor's table, so repeating them would create a second unique index.
    private func removeInheritedConstraints(from entities: inout [EntityDescription]) {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for i in entities.indices {
            var inherited: [[String]] = []
            var seen = Set<String>()
            var parent = entities[i].parent
            while let name = parent, seen.insert(name).inserted, let ancestor = byName[name] {
                inherited += ancestor.uniquenessConstraints
                parent = ancestor.parent
            }
            entities[i].uniquenessConstraints.removeAll { inherited.contains($0) }
        }
    }

    /// `NSProperties`: property name to property object.
    private func propertyEntries(of entity: ArchivedObject) -> [(key: String, value: ArchiveValue)] {
        archive.dictionary(entity["NSProperties"]) ?? []
    }

    private func entityName(_ value: ArchiveValue) -> String? {
        archive.object(value).flatMap { archive.string($0["NSEntityName"]) } ?? archive.string(value)
    }

    /// Names in a uniqueness tuple or compound index: strings or property objects.
    private func propertyNames(_ value: ArchiveValue) -> [String] {
        (archive.array(value) ?? []).compactMap { item in
            if let name = archive.string(item) { return name }
            guard var object = archive.object(item) else { return nil }
            if let underlying = object["NSUnderlyingProperty"].flatMap({ archive.object($0) }) { object = underlying }
            return archive.string(object["NSPropertyName"])
        }
    }

    private func fetchIndex(_ value: ArchiveValue, entity: String, warnings: inout [ModelWarning]) -> FetchIndex? {
        guard let object = archive.object(value), let name = archive.string(object["NSIndexName"]) else {
            warnings.append(ModelWarning(entity: entity, "an unreadable fetch index description was left out"))
            return nil
        }
        var elements: [FetchIndex.Element] = []
        for item in archive.array(object["NSIndexElements"]) ?? [] {
            guard let element = archive.object(item) else { continue }
            var property = archive.string(element["NSPropertyName"])
            if property == nil, let described = element["NSProperty"].flatMap({ archive.object($0) }) {
                property = archive.string(described["NSPropertyName"])
            }
            guard let property else {
                warnings.append(ModelWarning(entity: entity, property: name, "a fetch index element without a property was left out"))
                continue
            }
            let ascending = element["NSAscending"].map { archive.flag($0) } ?? true
            let kind = archive.integer(element["NSFetchIndexElementType"]) == 1 ? "RTree" : "Binary"
            elements.append(FetchIndex.Element(property, ascending: ascending, kind: kind))
        }
        var partial: String?
        if let predicate = object["NSPartialIndexPredicate"], archive.resolve(predicate) != .null {
            partial = ArchivedPredicateFormatter(archive: archive).predicate(predicate)
            if partial == nil {
                warnings.append(ModelWarning(entity: entity, property: name, "the partial index predicate could not be read; the index is treated as complete"))
            }
        }
        return FetchIndex(name, elements: elements, partialIndexPredicate: partial)
    }

    // MARK: - Model-level

    private func fetchRequestTemplates(_ value: ArchiveValue?, warnings: inout [ModelWarning]) -> [FetchRequestTemplate] {
        var templates: [FetchRequestTemplate] = []
        for (name, item) in archive.dictionary(value) ?? [] {
            guard let request = archive.object(item), let entity = request["NSEntity"].flatMap(entityName) ?? archive.string(request["NSEntityName"]) else {
                warnings.append(ModelWarning(property: name, "an unreadable fetch request template was left out"))
                continue
            }
            var predicate: String?
            if let archived = request["NSPredicate"], archive.resolve(archived) != .null {
                predicate = ArchivedPredicateFormatter(archive: archive).predicate(archived)
                if predicate == nil { warnings.append(ModelWarning(property: name, "the fetch request's predicate could not be read; it is left out")) }
            }
            templates.append(FetchRequestTemplate(name: name, entity: entity, predicate: predicate))
        }
        return templates.sorted { $0.name < $1.name }
    }
}
