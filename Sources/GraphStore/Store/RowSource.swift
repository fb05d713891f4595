/// The values of one row to write, as the store's writer asks for them: each stored
/// attribute and each stored to-one of the row's entity, in column order. The store pulls
/// the values and binds them itself, so a writer of many rows (a context's save) hands its
/// objects over as they are, with no array of values made per row.
///
/// ```swift
/// struct Draft: RowSource {
///     var title: String
///     func value(ofAttribute index: Int) -> AttributeValue? { index == 0 ? .string(title) : nil }
///     func destinationKey(ofRelationship index: Int) -> Int64? { nil }
///     func destinationEntity(ofRelationship index: Int) -> Int? { nil }
///     func order(inRelationship index: Int) -> Int64? { nil }
/// }
/// try store.insertRow(mapping, primaryKey: key, from: Draft(title: "Dune"))
/// ```
protocol RowSource {
    /// The value of the attribute at `index` in the mapping's attributes (asked for stored
    /// attributes only, when ``deferredValue(ofAttribute:)`` has none).
    func value(ofAttribute index: Int) -> AttributeValue?
    /// The stored value the row keeps as it was read, if the attribute holds one (a
    /// reference to an external data file, a value that cannot be read as its type).
    func deferredValue(ofAttribute index: Int) -> DeferredValue?
    /// The destination's key of the to-one at `index` in the mapping's relationships; nil
    /// when it is empty.
    func destinationKey(ofRelationship index: Int) -> Int64?
    /// The destination's concrete entity number (`Z<n>_`), asked only when the relationship
    /// has such a column.
    func destinationEntity(ofRelationship index: Int) -> Int?
    /// The row's position (`Z_FOK_`) in the ordered inverse of the to-one at `index`; asked
    /// only when the relationship has such a column.
    func order(inRelationship index: Int) -> Int64?
}

extension RowSource {
    func deferredValue(ofAttribute index: Int) -> DeferredValue? { nil }
}

extension StoredRow: RowSource {
    func value(ofAttribute index: Int) -> AttributeValue? { attributes[index] }

    func deferredValue(ofAttribute index: Int) -> DeferredValue? { attributes[index] == nil ? deferred[index] : nil }

    func destinationKey(ofRelationship index: Int) -> Int64? { toOne[index]?.primaryKey }

    func destinationEntity(ofRelationship index: Int) -> Int? { toOne[index]?.entityNumber }

    func order(inRelationship index: Int) -> Int64? { toOne[index]?.order }
}

extension PersistentStore {
    /// Binds a row's ``EntityMapping/rowColumns``, in order, from parameter `first`: every
    /// column, NULL included, so the statement's earlier bindings need not be cleared.
    /// A value of an attribute that allows external storage larger than
    /// ``PersistentStore/externalDataThreshold`` is written to a new file of the support
    /// folder first (synced), and the row gets its reference; a smaller one is inline.
    func bindRow(_ mapping: EntityMapping, from source: some RowSource, to statement: Statement, at first: Int32) throws {
        var parameter = first
        for i in mapping.storedAttributeIndices {
            if let deferred = source.deferredValue(ofAttribute: i) {
                // Not read since it was fetched: written back as stored (a reference stays a
                // reference to the same file; an unreadable value stays as it was).
                try statement.bind(deferred.stored, at: parameter)
                parameter += 1
                continue
            }
            let value = source.value(ofAttribute: i)
            if mapping.externalStorage[i], case .data(let bytes)? = value {
                let tagged = bytes.count > PersistentStore.externalDataThreshold
                    ? ExternalBinaryData.encodeReference(try externalFiles.write(bytes)) : ExternalBinaryData.encodeInline(bytes)
                try statement.bind(.blob(tagged), at: parameter)
            } else {
                try RowCodec.bind(value, as: mapping.attributeTypes[i], to: statement, at: parameter)
            }
            parameter += 1
        }
        for toOne in mapping.toOneColumns {
            if let key = source.destinationKey(ofRelationship: toOne.index) { statement.bind(key, at: parameter) } else { statement.bindNull(at: parameter) }
            parameter += 1
            if toOne.hasEntityColumn {
                if let number = source.destinationEntity(ofRelationship: toOne.index) {
                    statement.bind(Int64(number), at: parameter)
                } else {
                    statement.bindNull(at: parameter)
                }
                parameter += 1
            }
            if toOne.hasOrderColumn {
                if let order = source.order(inRelationship: toOne.index) { statement.bind(order, at: parameter) } else { statement.bindNull(at: parameter) }
                parameter += 1
            }
        }
        assert(parameter == first + Int32(mapping.rowColumns.count), "a column of \(mapping.name) was left unbound")
    }
}
