/// One stored object as read from its table: bookkeeping columns, decoded attributes and
/// to-one keys, aligned with its entity mapping.
public struct StoredRow: Sendable {
    /// `Z_PK`.
    public var primaryKey: Int64
    /// `Z_ENT`: the row's concrete entity number.
    public var entityNumber: Int
    /// `Z_OPT`: the row's version.
    public var version: Int64
    /// The concrete entity's mapping.
    public var mapping: EntityMapping
    /// One value per ``EntityMapping/attributes`` entry (nil for transient attributes).
    public var attributes: [AttributeValue?]
    /// One entry per ``EntityMapping/relationships`` entry: the to-one destination's
    /// key, entity number and order value; nil for to-many relationships or an empty to-one.
    public var toOne: [ForeignKey?]
    /// Values that could not be decoded, with the reason (reported, never crashed on).
    public var problems: [StoreError]

    /// A stored to-one reference.
    public struct ForeignKey: Sendable, Hashable {
        /// The destination's `Z_PK`.
        public var primaryKey: Int64
        /// The destination's `Z_ENT`, from the `Z<n>_` column when there is one.
        public var entityNumber: Int?
        /// The `Z_FOK_` order value, when the inverse is ordered.
        public var order: Int64?
    }
}

/// Reads rows of an entity family from one SELECT: the union of the family's columns,
/// with, for each concrete entity, where its own columns sit in the result.
struct RowReader {
    let columns: [String]
    private let positions: [Int: [Int]]
    private let mappings: [Int: EntityMapping]
    /// Where each concrete entity's values sit in a row that starts at column 0.
    let layouts: [RowLayout]

    /// Where external binary values live (`.<store name>_SUPPORT/_EXTERNAL_DATA`), if known.
    var externalData: ExternalBinaryData?

    init(family: [EntityMapping], externalData: ExternalBinaryData? = nil) {
        self.externalData = externalData
        var columns: [String] = []
        var index: [String: Int] = [:]
        var positions: [Int: [Int]] = [:]
        var mappings: [Int: EntityMapping] = [:]
        for mapping in family {
            positions[mapping.number] = mapping.rowColumns.map { column in
                if let i = index[column.uppercased()] { return i }
                columns.append(column)
                index[column.uppercased()] = columns.count - 1
                return columns.count - 1
            }
            mappings[mapping.number] = mapping
        }
        self.columns = columns
        self.positions = positions
        self.mappings = mappings
        self.layouts = family.map { RowLayout(mapping: $0, positions: positions[$0.number] ?? []) }
    }

    /// The layout of entity `number`'s rows, or nil when it is not of this family.
    func layout(entityNumber number: Int) -> RowLayout? {
        layouts.first { $0.mapping.number == number }
    }

    /// `Z_PK, Z_ENT, Z_OPT, <columns>` qualified with a table alias.
    func selectList(alias: String) -> String {
        (["Z_PK", "Z_ENT", "Z_OPT"] + columns).map { "\(alias).\($0)" }.joined(separator: ", ")
    }

    /// Decodes the current row of a statement whose first columns are this reader's.
    func read(_ statement: Statement, offset: Int = 0) -> StoredRow? {
        let number = Int(statement.int64(offset + 1))
        guard let mapping = mappings[number], let positions = positions[number] else { return nil }
        let pk = statement.int64(offset)
        var row = StoredRow(
            primaryKey: pk, entityNumber: number, version: statement.int64(offset + 2), mapping: mapping,
            attributes: [], toOne: [], problems: [])
        row.attributes = Array(repeating: nil, count: mapping.attributeTypes.count)
        row.toOne = Array(repeating: nil, count: mapping.relationships.count)
        var p = 0
        for i in mapping.storedAttributeIndices {
            let column = offset + 3 + positions[p]
            p += 1
            do {
                if mapping.externalStorage[i], case .blob(let tagged) = statement.value(column) {
                    row.attributes[i] = try ExternalBinaryData.decode(tagged, in: externalData)
                } else {
                    row.attributes[i] = try RowCodec.decode(statement, column: column, as: mapping.attributeTypes[i])
                }
            } catch {
                row.problems.append(.malformedValue(
                    entity: mapping.name, primaryKey: pk, key: mapping.attributes[i].attribute.name,
                    column: mapping.attributes[i].column ?? "", found: error.found, expected: error.expected))
            }
        }
        for toOne in mapping.toOneColumns {
            let keyIndex = offset + 3 + positions[p]
            p += 1
            var key: StoredRow.ForeignKey?
            if !statement.isNull(keyIndex) {
                key = StoredRow.ForeignKey(primaryKey: statement.int64(keyIndex), entityNumber: nil, order: nil)
            }
            if toOne.hasEntityColumn {
                let i = offset + 3 + positions[p]
                p += 1
                if !statement.isNull(i) { key?.entityNumber = Int(statement.int64(i)) }
            }
            if toOne.hasOrderColumn {
                let i = offset + 3 + positions[p]
                p += 1
                if !statement.isNull(i) { key?.order = statement.int64(i) }
            }
            row.toOne[toOne.index] = key
        }
        return row
    }
}
