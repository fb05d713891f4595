import Foundation

/// Where one concrete entity's values sit in the rows of a fetch statement (`Z_PK, Z_ENT,
/// Z_OPT`, then the family's columns), resolved once per fetch so that reading a row into
/// an object is a walk over a few column numbers, without dictionaries or an intermediate
/// ``StoredRow``.
final class RowLayout {
    /// A stored attribute: its index in the entity's attributes and its result column.
    struct Attribute {
        let index: Int
        let column: Int32
        let type: AttributeType
        /// The column holds Core Data's external-storage tagged blobs.
        let external: Bool
    }

    /// A stored to-one: its relationship index and result columns (-1 when absent), and
    /// its declared destination (resolved once per fetch, not per row).
    struct ToOne {
        let index: Int
        let keyColumn: Int32
        let entityColumn: Int32
        let orderColumn: Int32
        /// The declared destination's mapping; nil when the store has no such entity.
        let declared: EntityMapping?
        /// Whether the declared destination has sub-entities (a destination row then says
        /// which one it is).
        let destinationHasSubentities: Bool
    }

    let mapping: EntityMapping
    let attributes: [Attribute]
    let toOnes: [ToOne]
    /// For each of the entity's attributes, its position in ``attributes`` (-1: not stored).
    private let attributePositions: [Int]
    /// For each of the entity's relationships, its position in ``toOnes`` (-1: not a stored to-one).
    private let toOnePositions: [Int]

    /// `positions` are the entity's ``EntityMapping/rowColumns`` positions among the
    /// family's columns (see ``RowReader``); `lookup` finds a mapping by entity number.
    init(mapping: EntityMapping, positions: [Int], lookup: (Int) -> EntityMapping?) {
        self.mapping = mapping
        var p = 0
        func next() -> Int32 {
            defer { p += 1 }
            return p < positions.count ? Int32(3 + positions[p]) : -1
        }
        var attributes: [Attribute] = []
        for i in mapping.storedAttributeIndices {
            attributes.append(Attribute(index: i, column: next(), type: mapping.attributeTypes[i], external: mapping.externalStorage[i]))
        }
        var toOnes: [ToOne] = []
        for toOne in mapping.toOneColumns {
            let key = next()
            let entity = toOne.hasEntityColumn ? next() : -1
            let order = toOne.hasOrderColumn ? next() : -1
            let relationship = mapping.relationships[toOne.index]
            toOnes.append(
                ToOne(
                    index: toOne.index, keyColumn: key, entityColumn: entity, orderColumn: order,
                    declared: relationship.destinationNumbers.first.flatMap(lookup),
                    destinationHasSubentities: relationship.destinationHasSubentities))
        }
        self.attributes = attributes
        self.toOnes = toOnes
        var attributePositions = Array(repeating: -1, count: mapping.attributeTypes.count)
        for (position, attribute) in attributes.enumerated() { attributePositions[attribute.index] = position }
        var toOnePositions = Array(repeating: -1, count: mapping.relationships.count)
        for (position, toOne) in toOnes.enumerated() { toOnePositions[toOne.index] = position }
        self.attributePositions = attributePositions
        self.toOnePositions = toOnePositions
    }

    /// The stored attribute at `index` in the entity's attributes; nil when it is not stored.
    func attribute(at index: Int) -> Attribute? {
        guard attributePositions.indices.contains(index), attributePositions[index] >= 0 else { return nil }
        return attributes[attributePositions[index]]
    }

    /// The stored to-one at `index` in the entity's relationships; nil when it is not one.
    func toOne(at index: Int) -> ToOne? {
        guard toOnePositions.indices.contains(index), toOnePositions[index] >= 0 else { return nil }
        return toOnes[toOnePositions[index]]
    }
}

extension RowLayout {
    /// A stored attribute of the statement's current row, as an object's slot holds it: the
    /// decoded value, or a deferred one (a reference to a file in `folder`, which is not
    /// read now; a value that cannot be read as the attribute's type, which is an error
    /// only when it is asked for). Reading a row never fails on a value.
    @inline(__always)
    func slot(_ attribute: Attribute, from statement: Statement, folder: StoreSupportFolder) -> AttributeSlot {
        let column = Int(attribute.column)
        if attribute.external, statement.storageClass(column) == .blob {
            return ExternalBinaryData.decode(statement.data(column) ?? Data(), as: attribute.type, in: folder)
        }
        do throws(RowCodec.DecodingFailure) {
            return .value(try RowCodec.decode(statement, column: column, as: attribute.type))
        } catch {
            return .deferred(DeferredValue(.unreadable(stored: error.stored, failure: error)))
        }
    }

    /// A stored to-one's key, with its `Z<n>_` entity number and `Z_FOK_` order when the row
    /// has them, from the statement's current row; nil when the key is NULL.
    @inline(__always)
    func foreignKey(_ toOne: ToOne, from statement: Statement) -> StoredRow.ForeignKey? {
        let keyColumn = Int(toOne.keyColumn)
        // The key read once, whether NULL and its number from the one cell (see `StoredColumn`);
        // `sqlite3_value_int64` reads a key that is not an integer as `sqlite3_column_int64` does.
        guard keyColumn >= 0, let stored = statement.column(keyColumn), !stored.isNull else { return nil }
        var key = StoredRow.ForeignKey(primaryKey: stored.int64, entityNumber: nil, order: nil)
        if toOne.entityColumn >= 0, !statement.isNull(Int(toOne.entityColumn)) { key.entityNumber = Int(statement.int64(Int(toOne.entityColumn))) }
        if toOne.orderColumn >= 0, !statement.isNull(Int(toOne.orderColumn)) { key.order = statement.int64(Int(toOne.orderColumn)) }
        return key
    }
}

extension RowLayout {
    /// Why the current row's bookkeeping numbers cannot be trusted, if they cannot: `Z_OPT`
    /// or a to-one's key, `Z<n>_` or `Z_FOK_` column holding something `sqlite3_column_int64`
    /// does not read as the number it holds (a fraction, text that is not a whole number;
    /// text `'4'` is read as 4, as Core Data reads it).
    /// They are added to `problems`: nothing is made for a row without any.
    func appendNumberProblems(in statement: Statement, to problems: inout [StoreError]) {
        // A whole number stored as an integer (or NULL), the usual case, needs no closer look,
        // and a row whose bookkeeping columns all hold one needs no names looked up.
        func suspect(_ column: Int32) -> Bool {
            column >= 0 && statement.storageClass(Int(column)) != .integer && !statement.isNull(Int(column))
        }
        guard suspect(2) || toOnes.contains(where: { suspect($0.keyColumn) || suspect($0.entityColumn) || suspect($0.orderColumn) }) else { return }
        func check(_ column: Int32, key: String, name: String) {
            guard suspect(column), ColumnAccessor.Reading(statement: statement, column: Int(column)).wholeNumber() == nil
            else { return }
            problems.append(
                .malformedValue(
                    entity: mapping.name, primaryKey: statement.int64(0), key: key, column: name,
                    found: statement.value(Int(column)).shownAsFound, expected: "a whole number"))
        }
        check(2, key: "Z_OPT", name: "Z_OPT")
        for toOne in toOnes {
            let relationship = mapping.relationships[toOne.index]
            guard case .foreignKey(let key, let entity, let order) = relationship.storage else { continue }
            check(toOne.keyColumn, key: relationship.relationship.name, name: key)
            check(toOne.entityColumn, key: relationship.relationship.name, name: entity ?? "")
            check(toOne.orderColumn, key: relationship.relationship.name, name: order ?? "")
        }
    }
}
