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
///     for attribute in layout.attributes { slots[attribute.index] = row.slot(of: attribute, in: layout) }
///     return true   // false stops
/// }
/// ```
final class RowCursor {
    private let statement: Statement
    private let store: PersistentStore
    private let reader: RowReader?
    /// Where the store's external data files are: beside the real store file, also when the
    /// store is read from a private copy (read once, not per value).
    private let folder: StoreSupportFolder
    /// The entity number of every row, when the query reads an entity alone in its table:
    /// Core Data selects the constant `0` there and never reads `Z_ENT`, so every row of the
    /// table is an object of that entity, whatever its `Z_ENT` holds.
    private let loneEntityNumber: Int?
    private let sortStart: Int
    private let sortCount: Int

    /// A cursor over `statement`'s rows of `family`'s entities, whose columns `reader`
    /// describes (whole rows), or which holds keys only (no reader).
    init(statement: Statement, store: PersistentStore, family: [EntityMapping], reader: RowReader?, sortStart: Int = 0, sortCount: Int = 0) {
        self.statement = statement
        self.store = store
        self.reader = reader
        self.folder = store.supportFolder
        self.loneEntityNumber = family.count == 1 && family[0].isAloneInTable ? family[0].number : nil
        self.sortStart = sortStart
        self.sortCount = sortCount
    }

    // MARK: - Bookkeeping

    /// `Z_PK`.
    var primaryKey: Int64 { statement.int64(0) }
    /// `Z_ENT`: the row's concrete entity number.
    var entityNumber: Int { loneEntityNumber ?? Int(statement.int64(1)) }
    /// `Z_OPT`: the row's version (whole rows only).
    var version: Int64 { statement.int64(2) }

    // MARK: - Values

    /// Where the values of entity `number`'s rows are, or nil when the query does not read
    /// whole rows of that entity.
    func layout(entityNumber number: Int) -> RowLayout? {
        reader?.layout(entityNumber: number)
    }

    /// A stored attribute of the current row, as an object's slot holds it: decoded, or
    /// deferred (an external data file, read when the value is asked for; a value that
    /// cannot be read as its type, an error when it is asked for).
    @inline(__always)
    func slot(of attribute: RowLayout.Attribute, in layout: RowLayout) -> AttributeSlot {
        layout.slot(attribute, from: statement, folder: folder)
    }

    /// A stored to-one of the current row: the destination's ID and this row's `Z_FOK_`
    /// position in its ordered inverse; nil when the key is NULL.
    @inline(__always)
    func destination(of toOne: RowLayout.ToOne, in layout: RowLayout) throws -> (id: ObjectID, order: Int64?)? {
        guard let key = layout.foreignKey(toOne, from: statement) else { return nil }
        if !ObjectID.canHold(key.primaryKey) { throw layout.keyOutOfRange(toOne, primaryKey: primaryKey, found: key.primaryKey) }
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
    /// bookkeeping numbers that are not whole numbers, are listed in its `problems`; values
    /// kept in external data files are references, not read. Nil when the row's entity is
    /// not of the family read.
    func storedRow() -> StoredRow? {
        var row: StoredRow?
        return read(into: &row) ? row : nil
    }

    /// Reads the current row into `row`, reusing its arrays when it holds a row of the same
    /// entity that nothing else holds (a stream of rows then allocates nothing per row for
    /// them); false, leaving `row` alone, when the row's entity is not of the family read.
    func read(into row: inout StoredRow?) -> Bool {
        guard let layout = layout(entityNumber: entityNumber) else { return false }
        let mapping = layout.mapping
        var current: StoredRow
        if let earlier = row, earlier.mapping === mapping {
            current = earlier
            // Let go of the caller's copy, so that the arrays are changed in place.
            row = nil
            if !current.problems.isEmpty { current.problems.removeAll() }
            if !current.deferred.isEmpty { current.deferred.removeAll() }
        } else {
            current = StoredRow(
                primaryKey: 0, entityNumber: mapping.number, version: 0, mapping: mapping,
                attributes: Array(repeating: nil, count: mapping.attributeTypes.count),
                toOne: Array(repeating: nil, count: mapping.relationships.count), problems: [])
        }
        // Every stored attribute and to-one is written below; the others stay nil.
        current.primaryKey = primaryKey
        current.version = version
        fill(&current, layout)
        row = current
        return true
    }

    private func fill(_ row: inout StoredRow, _ layout: RowLayout) {
        let mapping = layout.mapping
        for attribute in layout.attributes {
            switch slot(of: attribute, in: layout) {
            case .value(let value):
                row.attributes[attribute.index] = value
            case .deferred(let deferred):
                row.attributes[attribute.index] = nil
                row.deferred[attribute.index] = deferred
                if case .unreadable(_, let failure) = deferred.kind {
                    let property = mapping.attributes[attribute.index]
                    row.problems.append(
                        .malformedValue(
                            entity: mapping.name, primaryKey: row.primaryKey, key: property.attribute.name, column: property.column ?? "",
                            found: failure.found, expected: failure.expected))
                }
            }
        }
        for toOne in layout.toOnes { row.toOne[toOne.index] = layout.foreignKey(toOne, from: statement) }
        layout.appendNumberProblems(in: statement, to: &row.problems)
        appendKeysOutOfRange(of: row, layout, to: &row.problems)
    }

    /// A `Z_PK` or to-one key no object ID can hold (see `KeyOutOfRange.swift`), from the
    /// numbers just read.
    private func appendKeysOutOfRange(of row: StoredRow, _ layout: RowLayout, to problems: inout [StoreError]) {
        if !ObjectID.canHold(row.primaryKey) { problems.append(.rowKeyOutOfRange(entity: layout.mapping.name, key: row.primaryKey)) }
        for toOne in layout.toOnes {
            guard let key = row.toOne[toOne.index], !ObjectID.canHold(key.primaryKey) else { continue }
            problems.append(layout.keyOutOfRange(toOne, primaryKey: row.primaryKey, found: key.primaryKey))
        }
    }

    /// The current row of a dictionary query: its properties' values by name, nil values
    /// left out (`layout` is the query's, made once: `FetchedDictionary.Layout(names)`).
    func dictionary(of query: FetchQuery, _ layout: FetchedDictionary.Layout) throws -> FetchedDictionary {
        var slots = ContiguousArray<FetchedValue?>()
        slots.reserveCapacity(query.properties.count)
        var column = 0
        for property in query.properties {
            slots.append(try value(of: property, at: column, query))
            column += property.attributeType == nil ? 2 : 1
        }
        return FetchedDictionary(layout: layout, slots: slots)
    }

    /// A property's value in the current row of a dictionary query, from its column (an
    /// attribute's) or its two (a to-one's key and entity number).
    private func value(of property: FetchQuery.PropertyColumn, at column: Int, _ query: FetchQuery) throws -> FetchedValue? {
        if let type = property.attributeType {
            do throws(RowCodec.DecodingFailure) {
                return try RowCodec.decode(statement, column: column, as: type).map(FetchedValue.attribute)
            } catch {
                throw StoreError.malformedValue(
                    entity: query.mapping.name, primaryKey: 0, key: property.name, column: "", found: error.found, expected: error.expected)
            }
        }
        guard !statement.isNull(column), let mapping = store.mapping(number: Int(statement.int64(column + 1))) else { return nil }
        let key = statement.int64(column)
        guard ObjectID.canHold(key) else { throw StoreError.keyOutOfRange(entity: query.mapping.name, primaryKey: 0, key: property.name, column: "", found: key) }
        return .objectID(ObjectID(mapping: mapping, primaryKey: key))
    }
}
