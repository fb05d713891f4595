import Foundation
import Testing
import TestScratch

/// Core Data's names as a port meets them (`Sources/GraphStore/Porting`): a small port, one
/// Core Data call per line, compiled once with swiftc against the built library; each line's
/// errors must name the GraphStore spelling. In the same file, GraphStore code using
/// Foundation's own NSPredicate, NSCompoundPredicate, NSSortDescriptor and NSNotification
/// must compile without a word (GraphStore declares none of them, so nothing is ambiguous;
/// Foundation on Linux deprecates NSExpression, so it cannot be used without a warning).
@Suite struct PortingNamesTests {
    /// A line of Core Data code and what its errors must say, together.
    struct PortLine {
        var code: String
        var says: [String]
    }

    /// Core Data's types that are a GraphStore type under another name.
    static let renamedTypes: [(coreData: String, graphStore: String)] = [
        ("NSPersistentContainer", "PersistentContainer"), ("NSPersistentStore", "PersistentStore"),
        ("NSManagedObjectContext", "ManagedObjectContext"), ("NSManagedObject", "ManagedObject"),
        ("NSManagedObjectID", "ObjectID"), ("NSManagedObjectModel", "ManagedObjectModel"),
        ("NSEntityDescription", "EntityDescription"), ("NSAttributeDescription", "AttributeDescription"),
        ("NSRelationshipDescription", "RelationshipDescription"), ("NSAttributeType", "AttributeType"),
        ("NSDeleteRule", "DeleteRule"), ("NSFetchIndexDescription", "FetchIndex"),
        ("NSFetchIndexElementDescription", "FetchIndex.Element"), ("NSExpressionDescription", "ExpressionDescription"),
        ("NSFetchRequest<ManagedObject>", "FetchRequest"), ("NSFetchRequestResultType", "FetchResultType"),
        ("NSFetchedResultsController<ManagedObject>", "FetchedResultsController"),
        ("NSFetchedResultsSectionInfo", "FetchedResultsSectionInfo"), ("NSFetchedResultsChangeType", "FetchedResultsChangeType"),
        ("NSMergeConflict", "MergeConflict"),
        ("NSBatchDeleteRequest", "BatchDeleteRequest"), ("NSBatchUpdateRequest", "BatchUpdateRequest"),
        ("NSBatchInsertRequest", "BatchInsertRequest"), ("NSBatchDeleteResult", "BatchResult"),
        ("NSBatchUpdateResult", "BatchResult"), ("NSBatchInsertResult", "BatchResult"),
        ("NSBatchDeleteRequestResultType", "BatchResultType"), ("NSBatchUpdateRequestResultType", "BatchResultType"),
        ("NSBatchInsertRequestResultType", "BatchResultType"),
        ("NSPersistentHistoryTransaction", "HistoryTransaction"), ("NSPersistentHistoryChange", "HistoryChange"),
        ("NSPersistentHistoryChangeType", "HistoryChange.ChangeType"), ("NSPersistentHistoryToken", "HistoryToken"),
        ("NSMigrationManager", "MappingMigrationManager"), ("NSMappingModel", "MappingModel"),
        ("NSEntityMapping", "MappingModel.EntityMapping"), ("NSEntityMappingType", "MappingModel.EntityMapping.Kind"),
        ("NSPropertyMapping", "MappingModel.PropertyMapping"), ("NSEntityMigrationPolicy", "EntityMigrationPolicy"),
        ("NSSecureUnarchiveFromDataTransformer", "SecureUnarchiveFromDataTransformer"), ("UndoManager", "ContextUndoManager"),
    ]

    /// Core Data's types whose counterpart is not a rename: the message says what to write.
    static let explainedTypes: [(coreData: String, says: String)] = [
        ("NSPersistentCloudKitContainer", "PersistentContainer(path:model:)"),
        ("NSPersistentStoreCoordinator", "ManagedObjectContext(store:)"),
        ("NSPersistentStoreDescription", "PersistentStore(path:model:readOnly:)"),
        ("NSManagedObjectContextConcurrencyType", "container.newBackgroundContext()"),
        ("NSFetchRequestResult", "FetchRequest<ManagedObject>"),
        ("NSPropertyDescription", "entity.attributes, entity.relationships"),
        ("NSDerivedAttributeDescription", ".derived(\"pages.@count\")"),
        ("NSAsynchronousFetchRequest<ManagedObject>", "container.performBackgroundTask"),
        ("NSPersistentHistoryChangeRequest", "store.fetchHistory(after: token)"),
        ("NSStagedMigrationManager", "MigrationManager(bundle:)"),
    ]

    /// Core Data's enum cases and constants that are GraphStore members under another name.
    static let renamedMembers: [(coreData: String, graphStore: String)] = [
        ("AttributeType.integer16AttributeType", "integer16"), ("AttributeType.integer32AttributeType", "integer32"),
        ("AttributeType.integer64AttributeType", "integer64"), ("AttributeType.decimalAttributeType", "decimal"),
        ("AttributeType.doubleAttributeType", "double"), ("AttributeType.floatAttributeType", "float"),
        ("AttributeType.stringAttributeType", "string"), ("AttributeType.booleanAttributeType", "boolean"),
        ("AttributeType.dateAttributeType", "date"), ("AttributeType.binaryDataAttributeType", "binaryData"),
        ("AttributeType.UUIDAttributeType", "uuid"), ("AttributeType.URIAttributeType", "uri"),
        ("DeleteRule.noActionDeleteRule", "noAction"), ("DeleteRule.nullifyDeleteRule", "nullify"),
        ("DeleteRule.cascadeDeleteRule", "cascade"), ("DeleteRule.denyDeleteRule", "deny"),
        ("FetchResultType.managedObjectResultType", "objects"), ("FetchResultType.managedObjectIDResultType", "objectIDs"),
        ("FetchResultType.dictionaryResultType", "dictionary"), ("FetchResultType.countResultType", "count"),
        ("BatchResultType.resultTypeStatusOnly", "statusOnly"), ("BatchResultType.resultTypeObjectIDs", "objectIDs"),
        ("BatchResultType.resultTypeCount", "count"), ("BatchResultType.statusOnlyResultType", "statusOnly"),
        ("BatchResultType.updatedObjectIDsResultType", "objectIDs"), ("BatchResultType.updatedObjectsCountResultType", "count"),
        ("ManagedObjectContext.didChangeObjectsNotification", "objectsDidChangeNotification"),
        ("Notification.Name.NSManagedObjectContextObjectsDidChange", "ManagedObjectContext.objectsDidChangeNotification"),
        ("Notification.Name.NSManagedObjectContextWillSave", "ManagedObjectContext.willSaveObjectsNotification"),
        ("Notification.Name.NSManagedObjectContextDidSave", "ManagedObjectContext.didSaveObjectsNotification"),
        ("NSInsertedObjectsKey", "ContextNotificationKey.inserted"), ("NSUpdatedObjectsKey", "ContextNotificationKey.updated"),
        ("NSDeletedObjectsKey", "ContextNotificationKey.deleted"), ("NSRefreshedObjectsKey", "ContextNotificationKey.refreshed"),
        ("NSInvalidatedAllObjectsKey", "ContextNotificationKey.invalidatedAll"),
        ("NSValidationObjectErrorKey", "CoreDataErrorKey.validationObject"), ("NSValidationKeyErrorKey", "CoreDataErrorKey.validationKey"),
        ("NSValidationValueErrorKey", "CoreDataErrorKey.validationValue"), ("NSDetailedErrorsKey", "CoreDataErrorKey.detailedErrors"),
        ("NSPersistentStoreSaveConflictsErrorKey", "CoreDataErrorKey.saveConflicts"),
    ]

    /// Core Data calls as a port writes them, on values of GraphStore's types (the
    /// parameters of every line's function: see `source`).
    static let calls: [PortLine] = [
        PortLine(code: #"let stack = NSPersistentContainer(name: "SurfJournalModel"); _ = stack"#,
                 says: ["renamed to 'PersistentContainer'", #"PersistentContainer(path: "Name.sqlite", model: try ModelFile(path: "Name.xcdatamodeld").model)"#]),
        PortLine(code: #"_ = NSPersistentContainer(name: "App", managedObjectModel: model)"#, says: [#"PersistentContainer(path: "Name.sqlite", model: model)"#]),
        PortLine(code: "container.loadPersistentStores { _, _ in }", says: ["PersistentContainer(path:model:) opens the store when it is made"]),
        PortLine(code: "_ = container.managedObjectModel", says: ["renamed to 'model'"]),
        PortLine(code: "_ = container.persistentStoreCoordinator", says: ["context.store"]),
        PortLine(code: "let child = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType); _ = child",
                 says: ["renamed to 'ManagedObjectContext'", "ManagedObjectContext(parent:)"]),
        PortLine(code: "context.perform { _ = context.hasChanges }", says: ["run the block's code directly"]),
        PortLine(code: "context.performAndWait { _ = context.hasChanges }", says: ["run the block's code directly"]),
        PortLine(code: "_ = context.persistentStoreCoordinator", says: ["renamed to 'store'"]),
        PortLine(code: "context.automaticallyMergesChangesFromParent = true", says: ["always merges background saves"]),
        PortLine(code: "_ = try context.object(with: id)", says: ["renamed to 'object(for:)'"]),
        PortLine(code: "_ = try context.existingObject(with: id)", says: ["try context.object(for: id)"]),
        PortLine(code: "_ = id.uriRepresentation()", says: ["objectID.uriRepresentation"]),
        PortLine(code: "_ = id.isTemporaryID", says: ["renamed to 'isTemporary'"]),
        PortLine(code: #"_ = try object.primitiveValue(forKey: "date")"#, says: ["renamed to 'value(forKey:)'"]),
        PortLine(code: #"object.willChangeValue(forKey: "date")"#, says: ["setValue(_:forKey:)"]),
        PortLine(code: #"object.didChangeValue(forKey: "date")"#, says: ["setValue(_:forKey:)"]),
        PortLine(code: "_ = try Entry.fetchRequest()", says: ["try FetchRequest<Book>()"]),
        PortLine(code: #"_ = NSEntityDescription.entity(forName: "Entry", in: context)"#, says: ["renamed to 'EntityDescription'", "context.model.entity(named: name)"]),
        PortLine(code: #"_ = try EntityDescription.insertNewObject(forEntityName: "Entry", into: context)"#, says: [#"try context.insert("Book")"#]),
        PortLine(code: #"_ = ManagedObjectModel(contentsOf: URL(fileURLWithPath: "App.momd"))"#, says: [#"try ModelFile(path: "App.xcdatamodeld").model"#]),
        PortLine(code: #"_ = model.entitiesByName["Entry"]"#, says: ["model.entity(named: name)"]),
        PortLine(code: "_ = entity.attributesByName", says: ["entity.attribute(named: name)"]),
        PortLine(code: "_ = entity.relationshipsByName", says: ["entity.relationship(named: name)"]),
        PortLine(code: "_ = entity.superentity", says: ["entity.parent"]),
        PortLine(code: "_ = entity.managedObjectClassName", says: ["renamed to 'className'"]),
        PortLine(code: "_ = entity.indexes", says: ["renamed to 'fetchIndexes'"]),
        PortLine(code: "_ = attribute.attributeType", says: ["renamed to 'type'"]),
        PortLine(code: "_ = relationship.destinationEntity", says: ["relationship.destination"]),
        PortLine(code: "_ = relationship.inverseRelationship", says: ["relationship.inverse"]),
        PortLine(code: #"let typed = NSFetchRequest<Entry>(entityName: "Entry"); _ = typed"#, says: ["renamed to 'FetchRequest'", "try FetchRequest<Book>()"]),
        PortLine(code: #"var sorted = request; sorted.sortDescriptors = [NSSortDescriptor(keyPath: \NSString.length, ascending: false)]; _ = sorted"#, says: ["renamed to 'sortKeys'"]),
        PortLine(code: "_ = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)",
                 says: ["renamed to 'FetchedResultsController'", "renamed to 'init(fetchRequest:managedObjectContext:sectionNameKeyPath:)'"]),
        PortLine(code: "FetchedResultsController<ManagedObject>.deleteCache(withName: nil)", says: ["keeps no cache"]),
        PortLine(code: "_ = batch.result", says: ["result.objectIDs"]),
        PortLine(code: "_ = transaction.transactionNumber", says: ["renamed to 'number'"]),
        PortLine(code: "_ = change.changeID", says: ["renamed to 'number'"]),
        PortLine(code: "_ = change.changedObjectID", says: ["renamed to 'objectID'"]),
    ]

    /// Every line of the port.
    static var port: [PortLine] {
        renamedTypes.map { PortLine(code: "let _: \($0.coreData)? = nil", says: ["'\($0.coreData.prefix { $0 != "<" })' has been renamed to '\($0.graphStore)'"]) }
            + explainedTypes.map { PortLine(code: "let _: \($0.coreData)? = nil", says: [$0.says]) }
            + renamedMembers.map { PortLine(code: "_ = \($0.coreData)", says: ["has been renamed to '\($0.graphStore)'"]) }
            + calls
    }

    /// GraphStore code beside Foundation's own predicate, sort and notification types,
    /// which must compile without a diagnostic.
    static let foundationUse = """
        func foundation(context: ManagedObjectContext, notification: NSNotification) throws -> Bool {
            let small = NSPredicate { value, _ in (value as? Int ?? 0) < 20 }
            let both = NSCompoundPredicate(andPredicateWithSubpredicates: [small, NSPredicate(value: true)])
            let byLength = NSSortDescriptor(keyPath: \\NSString.length, ascending: true)
            var request = try FetchRequest(entityName: "Entry", format: "date != nil")
            request.sortKeys = [SortKey("date", ascending: false)]
            let count = try context.count(for: request)
            return both.evaluate(with: count) && byLength.ascending && notification.name == ManagedObjectContext.didSaveObjectsNotification
        }
        """

    /// The port as one Swift file: each line in a function of its own, after the
    /// Foundation code; returns the file and the line number of each port line.
    static func source() -> (text: String, lines: [Int]) {
        var text = """
            import Foundation
            import GraphStore

            final class Entry: ManagedObject, EntityObject {
                class func propertyName(for keyPath: AnyKeyPath) -> String? { nil }
            }
            \(foundationUse)

            """
        var lines: [Int] = []
        for (index, line) in port.enumerated() {
            text += "@MainActor func port\(index)(context: ManagedObjectContext, container: PersistentContainer, request: FetchRequest<ManagedObject>, "
                + "object: ManagedObject, id: ObjectID, model: ManagedObjectModel, entity: EntityDescription, attribute: AttributeDescription, "
                + "relationship: RelationshipDescription, conflict: MergeConflict, batch: BatchResult, transaction: HistoryTransaction, change: HistoryChange) throws {\n"
            lines.append(text.split(separator: "\n", omittingEmptySubsequences: false).count)
            text += "    \(line.code)\n}\n"
        }
        return (text, lines)
    }

    /// The compiler's diagnostics by line of the file.
    static func diagnostics(_ output: String, file: String) -> [Int: [String]] {
        var byLine: [Int: [String]] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix(file + ":") {
            let parts = line.dropFirst(file.count + 1).split(separator: ":", maxSplits: 2)
            guard parts.count == 3, let number = Int(parts[0]) else { continue }
            byLine[number, default: []].append(String(parts[2]))
        }
        return byLine
    }

    @Test func aPortsCompileErrorsSayTheGraphStoreSpellingAndFoundationsNamesStayFoundations() throws {
        let (text, lines) = Self.source()
        let file = try ScratchDirectory.make("graphstore-port").appendingPathComponent("Port.swift").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try SwiftCompiler.check([file])
        #expect(result.status != 0)
        let diagnostics = Self.diagnostics(result.output, file: file)
        #expect(!diagnostics.isEmpty, "\(result.output)")
        // The Foundation code (before the first port line) compiles without a diagnostic.
        let foundationDiagnostics = diagnostics.filter { $0.key < (lines.first ?? 0) }
        #expect(foundationDiagnostics.isEmpty, "\(foundationDiagnostics)")
        for (line, number) in zip(Self.port, lines) {
            let messages = diagnostics[number] ?? []
            for expected in line.says {
                #expect(messages.contains { $0.contains(expected) }, "\(line.code): expected “\(expected)” in \(messages)")
            }
        }
    }
}
