/// The identity of a managed object: its concrete entity and its key in the store.
///
/// A newly inserted object has a temporary ID until it is saved; saving gives it a
/// permanent one, whose URI is Core Data's: `x-coredata://<store UUID>/<Entity>/p<Z_PK>`.
///
/// ```swift
/// book.objectID.uriRepresentation   // "x-coredata://6EB956E1-…/Book/p4"
/// book.objectID.primaryKey          // 4
/// ```
public struct ObjectID: Hashable, Sendable, CustomStringConvertible {
    /// The entity and the store, in one shared object: an ID holds one reference, so
    /// copying one costs one retain (see ``StoreEntity``). Temporary IDs hold the entity's
    /// temporary twin.
    let entity: StoreEntity
    private let key: Int64

    init(entity: StoreEntity, primaryKey: Int64) {
        self.entity = entity
        self.key = primaryKey
    }

    init(mapping: EntityMapping, storeUUID: String, primaryKey: Int64) {
        self.init(entity: StoreEntity(mapping: mapping, storeUUID: storeUUID), primaryKey: primaryKey)
    }

    init(temporaryFor entity: StoreEntity, serial: Int64) {
        self.entity = entity.temporary
        self.key = serial
    }

    private var temporary: Bool { entity.isTemporary }

    /// The concrete entity's mapping.
    public var mapping: EntityMapping { entity.mapping }
    /// The store's UUID.
    public var storeUUID: String { entity.storeUUID }
    /// The entity name.
    public var entityName: String { entity.mapping.name }
    /// `Z_PK`, or nil while the ID is temporary.
    public var primaryKey: Int64? { temporary ? nil : key }
    /// Whether the object has not been saved yet.
    public var isTemporary: Bool { temporary }

    /// Core Data's URI form of the ID.
    public var uriRepresentation: String {
        temporary ? "x-coredata:///\(mapping.name)/t\(key)" : "x-coredata://\(storeUUID)/\(mapping.name)/p\(key)"
    }

    /// The short form shown in messages: `Book p4` (or `Book t3` while temporary).
    public var description: String { "\(mapping.name) \(temporary ? "t" : "p")\(key)" }

    /// IDs are equal when they name the same row of the same entity in the same store,
    /// whichever context or store connection made them.
    public static func == (a: ObjectID, b: ObjectID) -> Bool {
        a.key == b.key && StoreEntity.same(a.entity, b.entity)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(entity.number)
    }
}
