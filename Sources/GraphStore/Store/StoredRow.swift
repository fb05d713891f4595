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
    /// The values not decoded with the row, by attribute index: references to external data
    /// files, and values that cannot be read as their type (also in ``problems``). Each
    /// stands for its attribute while ``attributes`` holds nil there.
    var deferred: [Int: DeferredValue] = [:]

    /// Whether an attribute's value was not decoded with the row: one kept in an external
    /// data file, or one that cannot be read as its type.
    public var hasDeferredValues: Bool { !deferred.isEmpty }

    /// The attributes whose values are kept in external data files, by attribute index
    /// (``attributes`` holds nil there): the files are not read with the row.
    /// ``attributeValue(at:)`` reads one.
    public var externalReferences: [Int: ExternalDataReference] {
        var references: [Int: ExternalDataReference] = [:]
        for (index, value) in deferred where attributes[index] == nil {
            if let reference = value.externalReference { references[index] = reference }
        }
        return references
    }

    /// The value of the attribute at `index` in ``EntityMapping/attributes``, reading its
    /// external data file when it has one: a missing file is
    /// ``StoreError/externalDataMissing(entity:primaryKey:key:file:)``, a value that cannot
    /// be read as its type ``StoreError/malformedValue(entity:primaryKey:key:column:found:expected:)``.
    public func attributeValue(at index: Int) throws(StoreError) -> AttributeValue? {
        if let value = attributes[index] { return value }
        return try deferred[index]?.value(of: mapping, attribute: index, primaryKey: primaryKey)
    }

    /// What an object's slot holds for the attribute at `index`.
    func slot(at index: Int) -> AttributeSlot {
        if attributes[index] == nil, let deferred = deferred[index] { return .deferred(deferred) }
        return .value(attributes[index])
    }

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
    /// The entities whose rows are read.
    let family: [EntityMapping]

    /// `lookup` finds a mapping by entity number (the to-ones' declared destinations).
    init(family: [EntityMapping], lookup: (Int) -> EntityMapping?) {
        self.family = family
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
    func rowReader(family: [EntityMapping]) -> RowReader {
        RowReader(family: family) { mapping(number: $0) }
    }
}
