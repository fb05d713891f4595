import Foundation

/// The rows of a query, one at a time, read in place: the current row's key, entity and
/// version, its attribute values decoded by the entity's ``RowLayout``, its to-ones as
/// object IDs, and the values it sorts by. This is the store's side of every fetch; the
/// context copies what it reads straight into objects, and never sees a statement, a column
/// number or SQL.
///
/// A cursor is lent to a closure (``PersistentStore/forEachRow(of:_:)``) and positioned on
/// one row per call: read the current row inside the call, never keep the cursor.
///
/// ```swift
/// try store.forEachRow(of: query) { row in
///     guard let layout = row.layout(entityNumber: row.entityNumber) else { return true }
///     for attribute in layout.attributes { values[attribute.index] = try row.value(of: attribute, in: layout) }
///     return true   // false stops
/// }
/// ```
final class RowCursor {
    private let statement: Statement
    private let store: PersistentStore
    private let reader: RowReader?
    /// Where the store's external binary values live (read once, not per value).
    private let externalData: ExternalBinaryData?
    private let sortStart: Int
    private let sortCount: Int

    /// A cursor over `statement`'s rows, whose columns `reader` describes (whole rows), or
    /// which holds keys only.
    init(statement: Statement, store: PersistentStore, reader: RowReader?, sortStart: Int = 0, sortCount: Int = 0) {
        self.statement = statement
        self.store = store
        self.reader = reader
        self.externalData = reader?.externalData
        self.sortStart = sortStart
        self.sortCount = sortCount
    }

    // MARK: - Bookkeeping

    /// `Z_PK`.
    var primaryKey: Int64 { statement.int64(0) }
    /// `Z_ENT`: the row's concrete entity number.
    var entityNumber: Int { Int(statement.int64(1)) }
    /// `Z_OPT`: the row's version (whole rows only).
    var version: Int64 { statement.int64(2) }

    // MARK: - Values

    /// Where the values of entity `number`'s rows are, or nil when the query does not read
    /// whole rows of that entity.
    func layout(entityNumber number: Int) -> RowLayout? {
        reader?.layout(entityNumber: number)
    }

    /// A stored attribute of the current row. A value that cannot be decoded is a
    /// `StoreError.malformedValue` naming the entity, row, key and column.
    @inline(__always)
    func value(of attribute: RowLayout.Attribute, in layout: RowLayout) throws(StoreError) -> AttributeValue? {
        try layout.decode(attribute, from: statement, externalData: externalData)
    }

    /// A stored to-one of the current row: the destination's ID and this row's `Z_FOK_`
    /// position in its ordered inverse; nil when the key is NULL.
    @inline(__always)
    func destination(of toOne: RowLayout.ToOne, in layout: RowLayout) throws -> (id: ObjectID, order: Int64?)? {
        guard let key = layout.foreignKey(toOne, from: statement) else { return nil }
        guard let declared = toOne.declared else {
            throw StoreError.unknownEntity(layout.mapping.relationships[toOne.index].relationship.destination)
        }
        return (try store.destinationID(key, declared: declared, hasSubentities: toOne.destinationHasSubentities), key.order)
    }

    /// The values the current row sorts by, as SQL computed them.
    var sortValues: [SortValue] {
        guard sortCount > 0 else { return [] }
        return (sortStart..<sortStart + sortCount).map { SortValue(stored: statement.value($0)) }
    }

    // MARK: - Whole rows and dictionaries

    /// The current row decoded into a ``StoredRow``; values that cannot be decoded, and
    /// bookkeeping numbers that are not whole numbers, are listed in its `problems`. Nil
    /// when the row's entity is not of the family read.
    func storedRow() -> StoredRow? {
        guard let layout = layout(entityNumber: entityNumber) else { return nil }
        let mapping = layout.mapping
        var row = StoredRow(
            primaryKey: primaryKey, entityNumber: mapping.number, version: version, mapping: mapping,
            attributes: Array(repeating: nil, count: mapping.attributeTypes.count),
            toOne: Array(repeating: nil, count: mapping.relationships.count), problems: [])
        for attribute in layout.attributes {
            do throws(StoreError) {
                row.attributes[attribute.index] = try value(of: attribute, in: layout)
            } catch {
                row.problems.append(error)
            }
        }
        for toOne in layout.toOnes { row.toOne[toOne.index] = layout.foreignKey(toOne, from: statement) }
        row.problems += layout.numberProblems(in: statement)
        return row
    }

    /// The current row of a dictionary query: its properties by name, nil values left out.
    func dictionary(of query: FetchQuery) throws -> [String: FetchedValue] {
        var result: [String: FetchedValue] = [:]
        var column = 0
        for property in query.properties {
            if let type = property.attributeType {
                let raw = statement.value(column)
                column += 1
                do {
                    if let value = try RowCodec.decode(raw, as: type) { result[property.name] = .attribute(value) }
                } catch {
                    throw StoreError.malformedValue(
                        entity: query.mapping.name, primaryKey: 0, key: property.name, column: "", found: error.found, expected: error.expected)
                }
            } else {
                defer { column += 2 }
                guard !statement.isNull(column), let mapping = store.mapping(number: Int(statement.int64(column + 1))) else { continue }
                result[property.name] = .objectID(ObjectID(mapping: mapping, primaryKey: statement.int64(column)))
            }
        }
        return result
    }
}
