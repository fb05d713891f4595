extension EntityMapping {
    /// A mapping with no table, properties or number, for an object made by
    /// ``EntityObject/init(context:)`` when the store has no such entity: the object lives
    /// outside any context, its properties read empty, and it is never saved.
    static func placeholder(_ entityName: String, storeUUID: String) -> EntityMapping {
        EntityMapping(
            entity: EntityDescription(entityName), number: 0, superNumber: 0, rootName: entityName, table: "", storeUUID: storeUUID,
            numbersWithDescendants: [], ownsWholeTable: false, keys: KeyColumnSQL(table: nil), attributes: [], relationships: [])
    }
}
