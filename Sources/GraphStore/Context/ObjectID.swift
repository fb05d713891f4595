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
    /// The concrete entity's mapping.
    public let mapping: EntityMapping
    /// The store's UUID.
    public let storeUUID: String
    private let key: Int64
    private let temporary: Bool

    init(mapping: EntityMapping, storeUUID: String, primaryKey: Int64) {
        self.mapping = mapping
        self.storeUUID = storeUUID
        self.key = primaryKey
        self.temporary = false
    }

    init(temporaryFor mapping: EntityMapping, storeUUID: String, serial: Int64) {
        self.mapping = mapping
        self.storeUUID = storeUUID
        self.key = serial
        self.temporary = true
    }

    /// The entity name.
    public var entityName: String { mapping.name }
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
        a.key == b.key && a.temporary == b.temporary && a.mapping.number == b.mapping.number && a.storeUUID == b.storeUUID
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(mapping.number)
    }
}
