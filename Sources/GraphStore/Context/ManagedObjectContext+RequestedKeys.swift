/// New objects given the primary key they had in another store: what an import of files
/// written by `export --ids` does, so that relationships to objects of an entity with no
/// natural key (named by that key, `p3`) find them, and the object IDs are kept.
///
/// Core Data has no such call: its keys are always handed out by the store. GraphStore
/// uses it only for those imports, and refuses a key the store (or this save) already has.
extension ManagedObjectContext {
    /// Inserts an object of an entity that takes `primaryKey` when saved. The key must be
    /// positive, not stored for the entity's inheritance root, and not asked for by another
    /// unsaved object of that root.
    func insert(_ entityName: String, primaryKey: Int64) throws -> ManagedObject {
        let mapping = try insertableMapping(entityName)
        func taken(_ reason: String) -> StoreError { .primaryKeyTaken(entity: mapping.name, primaryKey: primaryKey, reason: reason) }
        guard primaryKey >= 1 else { throw taken("a primary key is a number from 1") }
        if requestedKeys.isRequested(primaryKey, root: mapping.rootName) {
            throw taken("another new object is given it too")
        }
        let root = try store.mapping(for: mapping.rootName)
        guard try !store.hasRow(root: root, primaryKey: primaryKey) else {
            throw taken("the store already has \(root.name)/p\(primaryKey) (an import that keeps object IDs goes into a store without them, such as one made with --create)")
        }
        let object = try insert(entityName)
        requestedKeys.add(primaryKey, for: object.objectID)
        return object
    }

    /// The key an unsaved object was given by ``insert(_:primaryKey:)``, if any.
    func requestedKey(of object: ManagedObject) -> Int64? {
        requestedKeys.isEmpty ? nil : requestedKeys[object.objectID]
    }
}

/// The keys unsaved objects asked for, by object and by inheritance root: a lookup of either
/// is one hash, so an import of many objects that keep their IDs stays linear.
struct RequestedKeys {
    private var byObject: [ObjectID: Int64] = [:]
    private var byRoot: [String: Set<Int64>] = [:]

    /// Whether no object asked for a key.
    var isEmpty: Bool { byObject.isEmpty }

    /// The key an object asked for.
    subscript(id: ObjectID) -> Int64? { byObject[id] }

    /// Whether an object of this inheritance root asked for the key.
    func isRequested(_ key: Int64, root: String) -> Bool { byRoot[root]?.contains(key) == true }

    /// Records that an object asked for a key.
    mutating func add(_ key: Int64, for id: ObjectID) {
        byObject[id] = key
        byRoot[id.mapping.rootName, default: []].insert(key)
    }
}

