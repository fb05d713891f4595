/// A stored key an ``ObjectID`` cannot hold: a row's `Z_PK`, a to-one's key column or a
/// to-many member's key below ``ObjectID/lowestPermanentKey`` (-2⁶²).
///
/// Core Data numbers rows from 1, but SQLite takes any 64-bit integer as a rowid, and a
/// damaged store may hold anything in a key column (a real below the 64-bit range reads as
/// the lowest integer). Keys from -2⁶² up are read as any key (`Book/p-5`); the range below
/// is where unsaved objects' IDs live, so a stored key there would pass for one (and a save
/// of it would go to the wrong row). Reading one is an error that names the row and the
/// column instead.
///
/// ```swift
/// guard ObjectID.canHold(key) else { throw StoreError.rowKeyOutOfRange(entity: "Book", key: key) }
/// ```
extension StoreError {
    /// What such a key is reported as: `Book/p-9223372036854775808: Z_PK (column Z_PK) holds
    /// -9223372036854775808, which cannot be read as a key of -4611686018427387904 or more`.
    static func keyOutOfRange(entity: String, primaryKey: Int64, key: String, column: String, found: Int64) -> StoreError {
        .malformedValue(entity: entity, primaryKey: primaryKey, key: key, column: column, found: "\(found)", expected: "a key of \(ObjectID.lowestPermanentKey) or more")
    }

    /// A row of `entity` whose own `Z_PK` is such a key.
    static func rowKeyOutOfRange(entity: String, key: Int64) -> StoreError {
        keyOutOfRange(entity: entity, primaryKey: key, key: "Z_PK", column: "Z_PK", found: key)
    }
}

extension RowLayout {
    /// The row with `primaryKey` holds `found`, such a key, in `toOne`'s key column.
    func keyOutOfRange(_ toOne: ToOne, primaryKey: Int64, found: Int64) -> StoreError {
        let relationship = mapping.relationships[toOne.index]
        var column = ""
        if case .foreignKey(let name, _, _) = relationship.storage { column = name }
        return .keyOutOfRange(entity: mapping.name, primaryKey: primaryKey, key: relationship.relationship.name, column: column, found: found)
    }
}

extension ObjectID {
    /// Whether a stored key can be a permanent ID's.
    @inline(__always)
    static func canHold(_ key: Int64) -> Bool { key >= lowestPermanentKey }
}
