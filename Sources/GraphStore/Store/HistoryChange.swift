/// One change of one object in a persistent-history transaction: a row of `ACHANGE`
/// (Core Data's `NSPersistentHistoryChange`).
///
/// ```swift
/// for transaction in try store.fetchHistory(after: lastToken) {
///     for change in transaction.changes where change.changeType == .update {
///         print(change.entityName ?? "?", change.primaryKey, change.updatedProperties ?? [])
///     }
/// }
/// ```
public struct HistoryChange: Sendable, Hashable {
    /// What happened to the object (`ZCHANGETYPE`).
    public enum ChangeType: Int64, Sendable, Hashable, CustomStringConvertible {
        /// The object was inserted (0).
        case insert = 0
        /// The object was updated (1).
        case update = 1
        /// The object was deleted (2).
        case delete = 2

        /// `insert`, `update` or `delete`.
        public var description: String {
            switch self {
            case .insert: "insert"
            case .update: "update"
            case .delete: "delete"
            }
        }
    }

    /// The change's key (`Z_PK` of `ACHANGE`).
    public var number: Int64
    /// What happened.
    public var changeType: ChangeType
    /// The changed object's entity number (`ZENTITY`, its `Z_ENT`).
    public var entityNumber: Int
    /// The entity's name, or nil when the store's model has no entity with that number.
    public var entityName: String?
    /// The changed object's primary key (`ZENTITYPK`).
    public var primaryKey: Int64
    /// The changed object, when its entity is in the store's model.
    public var objectID: ObjectID?
    /// For an update, the properties the change touched, read from `ZCOLUMNS`; nil for
    /// inserts and deletes, and for an update whose entity's column order GraphStore has
    /// not established (see ``rawColumns``).
    public var updatedProperties: [String]?
    /// `ZCOLUMNS` as stored (nil for inserts and deletes).
    public var rawColumns: [UInt8]?
}
