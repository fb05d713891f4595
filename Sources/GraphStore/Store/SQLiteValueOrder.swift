/// SQLite's ORDER BY order between values (BINARY collation): NULL, then numbers by value,
/// then text by UTF-8 bytes, then blobs by bytes. Unsaved objects are merged into a
/// fetch's stored results with it, so they land exactly where SQL would have put them.
enum SQLiteValueOrder {
    /// -1, 0 or 1.
    static func compare(_ a: SQLiteValue, _ b: SQLiteValue) -> Int {
        let (rankA, rankB) = (rank(a), rank(b))
        if rankA != rankB { return rankA < rankB ? -1 : 1 }
        switch (a, b) {
        case (.integer(let x), .integer(let y)):
            return x == y ? 0 : (x < y ? -1 : 1)
        case (.text(let x), .text(let y)):
            return bytes(x.utf8, y.utf8)
        case (.blob(let x), .blob(let y)):
            return bytes(x, y)
        default:
            let (x, y) = (number(a), number(b))
            return x == y ? 0 : (x < y ? -1 : 1)
        }
    }

    private static func rank(_ value: SQLiteValue) -> Int {
        switch value {
        case .null: 0
        case .integer, .real: 1
        case .text: 2
        case .blob: 3
        }
    }

    private static func number(_ value: SQLiteValue) -> Double {
        switch value {
        case .integer(let v): Double(v)
        case .real(let v): v
        default: 0
        }
    }

    private static func bytes<A: Sequence, B: Sequence>(_ a: A, _ b: B) -> Int where A.Element == UInt8, B.Element == UInt8 {
        var x = a.makeIterator()
        var y = b.makeIterator()
        while true {
            switch (x.next(), y.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let p?, let q?) where p != q: return p < q ? -1 : 1
            default: continue
            }
        }
    }
}

/// One value a fetch sorts by, as SQL computes it from a row (stored the way the store
/// stores it, case-folded for a case-insensitive key), ordered as SQL orders it. A context
/// merges its unsaved objects into stored results by these.
struct SortValue {
    let stored: SQLiteValue

    /// -1, 0 or 1, as `ORDER BY` would place `a` and `b`.
    static func compare(_ a: SortValue, _ b: SortValue) -> Int {
        SQLiteValueOrder.compare(a.stored, b.stored)
    }
}

extension FetchQuery.SortColumn {
    /// The value SQL sorts by for an object whose key path reads `value`.
    func sortValue(of value: PredicateValue) -> SortValue {
        let stored = RowCodec.encode(value.attributeValue, as: attributeType)
        guard !folding.isEmpty, case .text(let text) = stored else { return SortValue(stored: stored) }
        return SortValue(stored: .text(StringMatching.fold(text, folding)))
    }
}
