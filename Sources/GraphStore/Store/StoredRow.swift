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

/// The columns of an entity family's rows in one SELECT: the union of the family's
/// columns, with, for each concrete entity, where its own columns sit in the result.
struct RowReader {
    let columns: [String]
    /// Where each concrete entity's values sit in a row that starts at column 0.
    let layouts: [RowLayout]

    /// Where external binary values live (`.<store name>_SUPPORT/_EXTERNAL_DATA`), if known.
    var externalData: ExternalBinaryData?

    /// `lookup` finds a mapping by entity number (the to-ones' declared destinations).
    init(family: [EntityMapping], externalData: ExternalBinaryData? = nil, lookup: (Int) -> EntityMapping?) {
        self.externalData = externalData
        var columns: [String] = []
        var index: [String: Int] = [:]
        var layouts: [RowLayout] = []
        for mapping in family {
            let positions = mapping.rowColumns.map { column in
                if let i = index[column.uppercased()] { return i }
                columns.append(column)
                index[column.uppercased()] = columns.count - 1
                return columns.count - 1
            }
            layouts.append(RowLayout(mapping: mapping, positions: positions, lookup: lookup))
        }
        self.columns = columns
        self.layouts = layouts
    }

    /// The layout of entity `number`'s rows, or nil when it is not of this family.
    func layout(entityNumber number: Int) -> RowLayout? {
        layouts.first { $0.mapping.number == number }
    }

    /// `Z_PK, Z_ENT, Z_OPT, <columns>` qualified with a table alias.
    func selectList(alias: String) -> String {
        (["Z_PK", "Z_ENT", "Z_OPT"] + columns).map { "\(alias).\($0)" }.joined(separator: ", ")
    }
}

extension PersistentStore {
    /// A reader of a family's rows, its to-ones' destinations resolved in this store.
    func rowReader(family: [EntityMapping], externalData: ExternalBinaryData? = nil) -> RowReader {
        RowReader(family: family, externalData: externalData) { mapping(number: $0) }
    }
}
