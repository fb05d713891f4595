/// One stored row of a fetch, read in place from the statement: its object ID and version,
/// and each value or to-one decoded only when asked for. Lent to the closure of
/// ``ManagedObjectContext/enumerateStoredRows(_:_:)`` for one call; never keep it.
///
/// What it reads is what an object made of the row would hold: a value kept in an
/// external data file is read from it, and a value that cannot be read as its type is
/// ``StoreError/malformedValue(entity:primaryKey:key:column:found:expected:)``.
///
/// ```swift
/// let title = try context.store.mapping(for: "Book").attributeIndex(of: "title") ?? 0
/// _ = try context.enumerateStoredRows(FetchRequest(entityName: "Book")) { row in
///     print(row.objectID, try row.value(at: title) ?? .null)
/// }
/// ```
public struct FetchedRow {
    private let cursor: RowCursor
    private let layout: RowLayout

    init(cursor: RowCursor, layout: RowLayout) {
        self.cursor = cursor
        self.layout = layout
    }

    /// The object the row stores (made when asked for: a row read for its values alone
    /// makes no ID).
    public var objectID: ObjectID { ObjectID(mapping: layout.mapping, primaryKey: cursor.primaryKey) }

    /// The row's concrete entity.
    public var mapping: EntityMapping { layout.mapping }

    /// `Z_OPT`.
    public var version: Int64 { cursor.version }

    /// The value of the attribute at `index` in ``EntityMapping/attributes``; nil when it
    /// has none, or the attribute is not stored (transient).
    public func value(at index: Int) throws(StoreError) -> AttributeValue? {
        guard let attribute = layout.attribute(at: index) else { return nil }
        switch cursor.slot(of: attribute, in: layout) {
        case .value(let value): return value
        case .deferred(let deferred): return try deferred.value(of: layout.mapping, attribute: index, primaryKey: cursor.primaryKey)
        }
    }

    /// The destination of the to-one relationship at `index` in
    /// ``EntityMapping/relationships``; nil when it has none, or the relationship is to-many.
    public func destinationID(at index: Int) throws -> ObjectID? {
        guard let toOne = layout.toOne(at: index) else { return nil }
        return try cursor.destination(of: toOne, in: layout)?.id
    }
}
