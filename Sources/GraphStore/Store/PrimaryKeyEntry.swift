/// One row of `Z_PRIMARYKEY`, the store's own list of its entities: an entity's number,
/// the name it was recorded under, its parent's number and its key counter. Opening a store
/// matches the model's entities to these rows (``PersistentStore/primaryKeyEntries``).
///
/// ```swift
/// let book = store.primaryKeyEntries[1]   // PrimaryKeyEntry(number: 1, name: "Book", superNumber: 0, max: 4)
/// ```
public struct PrimaryKeyEntry: Sendable, Hashable {
    /// `Z_ENT`.
    public var number: Int
    /// `Z_NAME`, the entity name as the store recorded it.
    public var name: String
    /// `Z_SUPER`: the parent entity's number, or 0.
    public var superNumber: Int
    /// `Z_MAX`: the highest primary key handed out (kept on the root's row).
    public var max: Int64
}
