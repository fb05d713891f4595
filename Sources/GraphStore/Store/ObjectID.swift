/// The identity of a managed object: its concrete entity's mapping and its key in the store.
///
/// A newly inserted object has a temporary ID until it is saved; saving gives it a
/// permanent one, whose URI is Core Data's: `x-coredata://<store UUID>/<Entity>/p<Z_PK>`.
///
/// ```swift
/// book.objectID.uriRepresentation   // "x-coredata://6EB956E1-…/Book/p4"
/// book.objectID.primaryKey          // 4
/// ```
public struct ObjectID: Hashable, Sendable, CustomStringConvertible {
    /// The concrete entity's mapping, which names the store too (``EntityMapping/storeUUID``):
    /// an ID is two words, and copying one costs one retain. An ID is made for every row a
    /// fetch reads (the object's own and each to-one's), so this is kept small.
    public let mapping: EntityMapping
    /// `Z_PK`; a temporary ID holds its serial counted from `Int64.min` (`t3` is
    /// `Int64.min + 3`), so that whether an ID is temporary is part of the key, and every key
    /// from ``lowestPermanentKey`` up is a permanent one: Core Data numbers rows from 1, but a
    /// damaged or hand-made store may hold 0 or a negative `Z_PK`.
    private let key: Int64

    /// The lowest `Z_PK` a permanent ID can hold, -2⁶²: the keys below are temporary IDs'.
    /// A store's key below it is reported, not read (``StoreError/keyOutOfRange(entity:primaryKey:key:column:found:)``).
    static let lowestPermanentKey = Int64.min / 2

    /// A permanent ID: the row of `mapping`'s store with this `Z_PK`, from
    /// ``lowestPermanentKey`` up (the readers of stored keys check it; a key below would
    /// make an ID that reads as temporary, but never a trap).
    init(mapping: EntityMapping, primaryKey: Int64) {
        self.mapping = mapping
        self.key = primaryKey
    }

    /// The temporary ID of the `serial`-th object inserted in a context (serials start at 1).
    init(temporaryFor mapping: EntityMapping, serial: Int64) {
        assert(serial > 0 && serial < -ObjectID.lowestPermanentKey, "temporary serials start at 1")
        self.mapping = mapping
        self.key = Int64.min &+ serial
    }

    /// Whether the object has not been saved yet.
    public var isTemporary: Bool { key < ObjectID.lowestPermanentKey }
    /// A temporary ID's serial (`3` for `t3`).
    private var serial: Int64 { key &- Int64.min }
    /// The store's UUID.
    public var storeUUID: String { mapping.storeUUID }
    /// The entity name.
    public var entityName: String { mapping.name }
    /// `Z_PK`, or nil while the ID is temporary.
    public var primaryKey: Int64? { isTemporary ? nil : key }

    /// Core Data's URI form of the ID.
    public var uriRepresentation: String {
        isTemporary ? "x-coredata:///\(mapping.name)/t\(serial)" : "x-coredata://\(storeUUID)/\(mapping.name)/p\(key)"
    }

    /// The short form shown in messages: `Book/p4` (or `Book/t3` while temporary).
    public var description: String { isTemporary ? "\(mapping.name)/t\(serial)" : "\(mapping.name)/p\(key)" }

    /// IDs are equal when they name the same row of the same entity in the same store,
    /// whichever context or store connection made them.
    public static func == (a: ObjectID, b: ObjectID) -> Bool {
        a.key == b.key && (a.mapping === b.mapping || (a.mapping.number == b.mapping.number && a.mapping.storeUUID == b.mapping.storeUUID))
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(mapping.number)
    }
}
