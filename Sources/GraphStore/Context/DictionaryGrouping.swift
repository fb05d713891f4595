/// A grouped, aggregated dictionary fetch computed in memory, as SQLite computes it: rows
/// grouped by equal values (nil with nil), `COUNT`, `SUM` (whole while every value is
/// whole), `AVG`, `MIN` and `MAX` over the non-nil values, in SQLite's value order. A
/// request whose predicate SQL cannot express is answered this way, and tests check the
/// SQL answer against it.
struct DictionaryGrouping {
    private struct Group {
        var first: [String: FetchedValue]
        var rows = 0
        var values: [String: [SQLiteValue]] = [:]
    }

    let request: FetchRequest<ManagedObject>
    /// The types results are decoded with: those the SQL query decodes with.
    let types: [String: AttributeType]
    /// The key paths each row is read at: the groups', then the aggregates'.
    let keyPaths: [String]
    private var groups: [[FetchedValue?]: Group] = [:]
    private var order: [[FetchedValue?]] = []

    init(request: FetchRequest<ManagedObject>, types: [FetchQuery.PropertyColumn]) {
        self.request = request
        self.types = Dictionary(types.compactMap { column in column.attributeType.map { (column.name, $0) } }) { first, _ in first }
        var keyPaths = request.propertiesToGroupBy
        for case .expression(let expression) in request.propertiesToFetch {
            if let keyPath = expression.keyPath, !keyPaths.contains(keyPath) { keyPaths.append(keyPath) }
        }
        self.keyPaths = keyPaths
    }

    /// Adds one matching row's values (by key path).
    mutating func add(_ row: [String: FetchedValue]) throws {
        let key = request.propertiesToGroupBy.map { row[$0] }
        if groups[key] == nil {
            groups[key] = Group(first: row)
            order.append(key)
        }
        groups[key]?.rows += 1
        for case .expression(let expression) in request.propertiesToFetch {
            guard let keyPath = expression.keyPath, case .attribute(let value)? = row[keyPath] else { continue }
            groups[key]?.values[expression.name, default: []].append(RowCodec.stored(value))
        }
    }

    /// One dictionary per group, in the order groups were met (with no groups, exactly one,
    /// as SQL aggregates an empty table into one row).
    func results() throws -> [FetchedDictionary] {
        var keys = order
        if request.propertiesToGroupBy.isEmpty, keys.isEmpty { keys = [[]] }
        let layout = FetchedDictionary.Layout(request.propertiesToFetch.map(\.name))
        var results: [FetchedDictionary] = []
        var seen: Set<FetchedDictionary> = []
        for key in keys {
            let group = groups[key] ?? Group(first: [:])
            var slots = ContiguousArray<FetchedValue?>()
            for property in request.propertiesToFetch {
                switch property {
                case .keyPath(let keyPath):
                    slots.append(group.first[keyPath])
                case .expression(let expression):
                    let value = try aggregate(expression, group)
                    let decoded = types[expression.name].flatMap { type in try? RowCodec.decode(value, as: type) }
                    slots.append(decoded.map(FetchedValue.attribute))
                }
            }
            let result = FetchedDictionary(layout: layout, slots: slots)
            if request.returnsDistinctResults, !seen.insert(result).inserted { continue }
            results.append(result)
        }
        return results
    }

    private func aggregate(_ expression: ExpressionDescription, _ group: Group) throws -> SQLiteValue {
        let values = group.values[expression.name] ?? []
        switch expression.function {
        case .count:
            return .integer(Int64(expression.keyPath == nil ? group.rows : values.count))
        case .sum:
            return try Self.sum(values)
        case .average:
            guard !values.isEmpty else { return .null }
            return .real(values.reduce(0) { $0 + Self.number($1) } / Double(values.count))
        case .min:
            return values.min { SQLiteValueOrder.compare($0, $1) < 0 } ?? .null
        case .max:
            return values.max { SQLiteValueOrder.compare($0, $1) < 0 } ?? .null
        }
    }

    /// SQLite's SUM: NULL for no values, whole while every value is whole (an overflow is an
    /// error, as in SQLite), otherwise a Double.
    private static func sum(_ values: [SQLiteValue]) throws -> SQLiteValue {
        guard !values.isEmpty else { return .null }
        var whole: Int64 = 0
        for value in values {
            guard case .integer(let v) = value else { return .real(values.reduce(0) { $0 + number($1) }) }
            let (total, overflow) = whole.addingReportingOverflow(v)
            if overflow { throw FetchError.invalidRequest("integer overflow in sum:") }
            whole = total
        }
        return .integer(whole)
    }

    private static func number(_ value: SQLiteValue) -> Double {
        switch value {
        case .integer(let v): Double(v)
        case .real(let v): v
        default: 0
        }
    }

    // MARK: - Having, order, window

    /// A request's having predicate, its strings compared with date entries read as dates.
    static func having(of request: FetchRequest<ManagedObject>, types: [FetchQuery.PropertyColumn]) throws -> ObjectPredicate? {
        let dates = Set(types.filter { $0.attributeType == .date }.map(\.name))
        return try request.havingPredicate?.readingDateStrings { dates.contains($0.joined(separator: ".")) }
    }

    /// Whether a result dictionary matches a having predicate; a dotted name
    /// (`category.name`) is reached as a key path through nested dictionaries.
    static func matches(_ having: ObjectPredicate, _ row: FetchedDictionary) throws -> Bool {
        var nested: [String: PredicateValue] = [:]
        for (name, value) in row {
            let element: PredicateValue
            switch value {
            case .attribute(let attribute): element = .attribute(attribute)
            case .objectID(let id): element = .attribute(.string(id.uriRepresentation))
            }
            insert(element, at: name.split(separator: ".").map(String.init)[...], into: &nested)
        }
        return try having.evaluate(with: nested)
    }

    private static func insert(_ value: PredicateValue, at path: ArraySlice<String>, into entries: inout [String: PredicateValue]) {
        guard let first = path.first else { return }
        guard path.count > 1 else {
            entries[first] = value
            return
        }
        var inner: [String: PredicateValue] = [:]
        if case .object(let existing as KeyValueDictionary)? = entries[first] { inner = existing.entries }
        insert(value, at: path.dropFirst(), into: &inner)
        entries[first] = .dictionary(inner)
    }

    /// Results ordered by sort keys naming their entries, as ORDER BY orders them.
    static func sorted(_ results: [FetchedDictionary], by keys: [SortKey]) -> [FetchedDictionary] {
        guard !keys.isEmpty else { return results }
        func value(_ row: FetchedDictionary, _ key: SortKey) -> SQLiteValue {
            guard case .attribute(let attribute)? = row[key.keyPath] else { return .null }
            let value = RowCodec.stored(attribute)
            guard key.caseInsensitive, case .text(let text) = value else { return value }
            return .text(StringMatching.fold(text, .caseInsensitive))
        }
        return results.sorted { a, b in
            for key in keys {
                let order = SQLiteValueOrder.compare(value(a, key), value(b, key))
                if order != 0 { return key.ascending ? order < 0 : order > 0 }
            }
            return false
        }
    }

    /// The request's offset and limit applied.
    static func window(_ results: [FetchedDictionary], _ request: FetchRequest<ManagedObject>) -> [FetchedDictionary] {
        let start = min(request.fetchOffset, results.count)
        let end = request.fetchLimit.map { min(results.count - start, $0) + start } ?? results.count
        return Array(results[start..<end])
    }
}
