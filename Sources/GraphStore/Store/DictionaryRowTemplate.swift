/// The dictionary a dictionary fetch makes of each row, laid out once per fetch.
///
/// Every row's dictionary has the same keys, so the keys are hashed once, into a template
/// holding a placeholder per key; a row's dictionary is a copy of it (one allocation, the
/// keys copied bucket by bucket, not hashed again) with each value stored at the key's
/// index. Indices stay valid in the copy: copying a dictionary's storage keeps its seed and
/// age, which is what an index is checked against. Keys without a value are removed
/// afterwards (by key: removing by index would move the others). Built this way, a row cost
/// a fifth of the instructions of inserting its keys into an empty dictionary (1M rows).
struct DictionaryRowTemplate {
    private let template: [String: FetchedValue]
    /// Where each property's value goes, in the order of the query's properties.
    private let slots: [Dictionary<String, FetchedValue>.Index]
    private let names: [String]

    init(_ properties: [FetchQuery.PropertyColumn]) {
        var template: [String: FetchedValue] = [:]
        template.reserveCapacity(properties.count)
        for property in properties { template[property.name] = .attribute(.bool(false)) }
        // Every name was just inserted, so each has an index.
        slots = properties.compactMap { template.index(forKey: $0.name) }
        names = properties.map(\.name)
        self.template = template
    }

    /// A row's dictionary: `value(i)` is the value of property `i`, nil to leave its key out.
    @inline(__always)
    func dictionary(_ value: (Int) throws -> FetchedValue?) rethrows -> [String: FetchedValue] {
        var result = template
        var missing: [Int] = []
        for (i, slot) in slots.enumerated() {
            if let found = try value(i) { result.values[slot] = found } else { missing.append(i) }
        }
        for i in missing { result.removeValue(forKey: names[i]) }
        return result
    }
}
