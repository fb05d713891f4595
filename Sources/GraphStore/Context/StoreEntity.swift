/// One entity of one store as object IDs name it: the entity's mapping and the store's
/// UUID in one shared, immutable object.
///
/// Why: an ``ObjectID`` is made for every row a fetch reads (the object's own and each
/// to-one's), copied into relationships and results, and freed with its object. Holding the
/// mapping and the UUID string separately cost two retains and two releases per copy;
/// holding this costs one. A store keeps one per entity (``PersistentStore/storeEntity(for:)``),
/// so the IDs of one store usually share it and compare it by identity.
///
/// Temporary IDs (objects not saved yet) name the entity's *temporary twin*, made with it:
/// whether an ID is temporary is then part of the reference, and an ``ObjectID`` is two
/// words (a reference and a key) rather than three.
final class StoreEntity: Sendable {
    /// The concrete entity's mapping.
    let mapping: EntityMapping
    /// The store's UUID.
    let storeUUID: String
    /// `mapping.number`, kept here so that comparing and hashing IDs reads one object.
    let number: Int
    /// Whether this is the twin that temporary IDs name.
    let isTemporary: Bool
    private let twin: StoreEntity?

    init(mapping: EntityMapping, storeUUID: String) {
        self.mapping = mapping
        self.storeUUID = storeUUID
        self.number = mapping.number
        self.isTemporary = false
        self.twin = StoreEntity(temporaryTwinOf: mapping, storeUUID: storeUUID)
    }

    private init(temporaryTwinOf mapping: EntityMapping, storeUUID: String) {
        self.mapping = mapping
        self.storeUUID = storeUUID
        self.number = mapping.number
        self.isTemporary = true
        self.twin = nil
    }

    /// The entity that temporary IDs of this entity name.
    var temporary: StoreEntity { twin ?? self }

    /// Whether two entities are the same entity of the same store, both temporary or both not.
    @inline(__always)
    static func same(_ a: StoreEntity, _ b: StoreEntity) -> Bool {
        a === b || (a.number == b.number && a.isTemporary == b.isTemporary && a.storeUUID == b.storeUUID)
    }
}
