/// Core Data's batch requests: work done by one SQL statement over many rows, with no
/// object per row, run by ``ManagedObjectContext/execute(_:)-(BatchDeleteRequest)``.
///
/// As in Core Data, a batch request goes straight to the store: it runs no validation, no
/// `willSave` hook, and changes no object a context holds. Merge its result into the
/// contexts that show the objects:
///
/// ```swift
/// var request = BatchDeleteRequest(fetchRequest: try FetchRequest(entityName: "Book", format: "price < 5"))
/// request.resultType = .objectIDs
/// let result = try context.execute(request)
/// try context.mergeChanges(result.changes)    // deleted objects leave the context
/// ```

/// What a batch request returns (Core Data's `NSBatchDeleteRequestResultType`,
/// `NSBatchUpdateRequestResultType` and `NSBatchInsertRequestResultType`, one enum here).
public enum BatchResultType: Sendable, Hashable {
    /// Whether the request succeeded (it throws otherwise). The default.
    case statusOnly
    /// The number of objects the request matched (inserted, updated or deleted).
    case count
    /// The IDs of every object it inserted, updated or deleted.
    case objectIDs
}

/// Deletes the objects a fetch request matches, or objects given by ID, in the store
/// (Core Data's `NSBatchDeleteRequest`). Delete rules apply as in Core Data's batch delete:
/// Cascade deletes the destinations too, Nullify clears their inverse, Deny refuses the
/// whole request while a destination would remain (1600), No Action leaves them.
public struct BatchDeleteRequest: Sendable {
    /// The objects to delete: its entity, predicate, sub-entities and window.
    public var fetchRequest: FetchRequest<ManagedObject>
    /// Objects given by ID instead of a predicate (nil with a fetch request).
    public var objectIDs: [ObjectID]?
    /// What ``ManagedObjectContext/execute(_:)-(BatchDeleteRequest)`` returns.
    public var resultType: BatchResultType = .statusOnly

    /// A request deleting what `fetchRequest` matches.
    public init<Result>(fetchRequest: FetchRequest<Result>) {
        self.fetchRequest = fetchRequest.untyped
    }

    /// A request deleting these objects, all of one entity (mixing entities is an error
    /// when the request runs, as in Core Data).
    public init(objectIDs: [ObjectID]) {
        self.fetchRequest = FetchRequest(entityName: objectIDs.first?.mapping.name ?? "")
        self.objectIDs = objectIDs
    }
}

/// Sets attributes of every object a predicate matches, in the store (Core Data's
/// `NSBatchUpdateRequest`). Each updated row's version (`Z_OPT`) goes up, so a context that
/// saves a change of one of them meets it as a conflict (133020).
///
/// ```swift
/// var request = BatchUpdateRequest(entityName: "Book")
/// request.predicate = try ObjectPredicate(format: "price < 5")
/// request.propertiesToUpdate = ["price": .double(5)]
/// try context.execute(request)
/// ```
public struct BatchUpdateRequest: Sendable {
    /// The entity whose objects are updated.
    public var entityName: String
    /// Which objects; nil for all.
    public var predicate: ObjectPredicate?
    /// Whether objects of sub-entities are updated too (the default).
    public var includesSubentities = true
    /// The new value of each attribute, by name (nil clears it).
    public var propertiesToUpdate: [String: AttributeValue?] = [:]
    /// What ``ManagedObjectContext/execute(_:)-(BatchUpdateRequest)`` returns.
    public var resultType: BatchResultType = .statusOnly

    /// A request updating objects of an entity.
    public init(entityName: String) {
        self.entityName = entityName
    }
}

/// Inserts objects given as dictionaries of attribute values, in the store (Core Data's
/// `NSBatchInsertRequest`). Attributes a dictionary leaves out take the model's default.
///
/// ```swift
/// let rows: [[String: AttributeValue?]] = [["title": .string("Dune"), "price": .double(9)]]
/// try context.execute(BatchInsertRequest(entityName: "Book", objects: rows))
/// ```
public struct BatchInsertRequest: Sendable {
    /// The entity of the new objects.
    public var entityName: String
    /// One dictionary of attribute values per object.
    public var objectsToInsert: [[String: AttributeValue?]]
    /// What ``ManagedObjectContext/execute(_:)-(BatchInsertRequest)`` returns.
    public var resultType: BatchResultType = .statusOnly

    /// A request inserting one object of `entityName` per dictionary.
    public init(entityName: String, objects: [[String: AttributeValue?]]) {
        self.entityName = entityName
        self.objectsToInsert = objects
    }
}

/// What a batch request did (Core Data's `NSBatchDeleteResult`, `NSBatchUpdateResult`,
/// `NSBatchInsertResult`).
public struct BatchResult: Sendable, Hashable {
    /// The result type the request asked for.
    public var resultType: BatchResultType
    /// How many objects the request inserted, updated or deleted (for a delete, those its
    /// fetch request matched, not counting those delete rules took with them).
    public var count: Int
    /// With ``BatchResultType/objectIDs``: every object inserted, updated or deleted (for a
    /// delete, those delete rules took with them included); empty otherwise.
    public var objectIDs: [ObjectID]
    /// The objects by kind of change, for ``ManagedObjectContext/mergeChanges(_:)-(ObjectChanges)``.
    public var changes: ObjectChanges
}

/// A batch request that cannot run.
public enum BatchRequestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A batch delete would leave a destination of a Deny relationship (Core Data's 1600).
    case deniedDelete(entity: String, relationship: String)
    /// A batch delete given object IDs of more than one entity.
    case mixedEntities([String])
    /// A property to update or insert that is not a stored attribute of the entity.
    case notAnAttribute(entity: String, key: String)

    public var description: String {
        switch self {
        case .deniedDelete(let entity, let relationship):
            "batch delete refused: \(entity).\(relationship) has the Deny delete rule and still holds objects the batch does not delete"
        case .mixedEntities(let names):
            "a batch delete by object IDs takes objects of one entity; these are of \(names.joined(separator: ", "))"
        case .notAnAttribute(let entity, let key):
            "\(entity).\(key) is not a stored attribute: a batch request sets attributes only"
        }
    }
}
