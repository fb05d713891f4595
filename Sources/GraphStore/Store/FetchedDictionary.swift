/// One result of a dictionary fetch: the fetched properties' values by key, nil values
/// left out.
///
/// Every row of a fetch has the same keys, so the rows share one layout, made once per
/// fetch, and each row holds only its values, by the key's position. Reading a key compares
/// it with the few keys of the layout instead of hashing it; making and freeing a row is one
/// allocation. It reads, iterates, compares and hashes as a `[String: FetchedValue]` with
/// the same entries does.
///
/// ```swift
/// var request = FetchRequest(entityName: "Book")
/// request.propertiesToFetch = ["title", "category"]
/// for row in try context.fetchDictionaries(request) {
///     print(row["title"]?.attributeValue?.stringValue ?? "", row["category"]?.objectID as Any)
/// }
/// let expected: FetchedDictionary = ["title": .attribute(.string("Dune"))]   // a literal, as a dictionary's
/// ```
public struct FetchedDictionary: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// The keys a fetch's rows share, in the order of its properties.
    final class Layout: Sendable {
        let names: [String]
        /// Each name's position, for layouts too wide to search one by one.
        private let positions: [String: Int]

        /// Up to this many keys, finding one compares it with each (short keys compare by
        /// their bytes in place); beyond, the positions are hashed.
        private static let searchedInOrder = 8

        init(_ names: [String]) {
            self.names = names
            var positions: [String: Int] = [:]
            if names.count > Self.searchedInOrder {
                for (position, name) in names.enumerated() where positions[name] == nil { positions[name] = position }
            }
            self.positions = positions
        }

        func position(of key: String) -> Int? {
            guard names.count > Self.searchedInOrder else {
                // A plain loop: `firstIndex(of:)` went through an unspecialized index type.
                for position in 0..<names.count where names[position] == key { return position }
                return nil
            }
            return positions[key]
        }
    }

    private(set) var layout: Layout
    /// One per key of the layout; nil where the row has no value.
    private var slots: ContiguousArray<FetchedValue?>

    /// A row of a fetch: `slots` holds a value or nil for each of the layout's names.
    init(layout: Layout, slots: ContiguousArray<FetchedValue?>) {
        self.layout = layout
        self.slots = slots
    }

    /// The entries of a dictionary, in the order of its sorted keys.
    public init(_ dictionary: [String: FetchedValue]) {
        let names = dictionary.keys.sorted()
        self.init(layout: Layout(names), slots: ContiguousArray(names.map { dictionary[$0] }))
    }

    public init(dictionaryLiteral elements: (String, FetchedValue)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// The value of `key`, nil when the row has none; setting nil removes it.
    ///
    /// ```swift
    /// row["title"]?.attributeValue?.stringValue      // "Dune"
    /// ```
    public subscript(key: String) -> FetchedValue? {
        get {
            guard let position = layout.position(of: key) else { return nil }
            return slots[position]
        }
        set {
            if let position = layout.position(of: key) {
                slots[position] = newValue
            } else if let newValue {
                // A key the fetch did not have: this row gets a layout of its own.
                layout = Layout(layout.names + [key])
                slots.append(newValue)
            }
        }
    }

    /// How many keys have a value.
    public var count: Int { slots.reduce(0) { $1 == nil ? $0 : $0 + 1 } }

    public var isEmpty: Bool { slots.allSatisfy { $0 == nil } }

    public var underestimatedCount: Int { count }

    /// The keys with a value, in the order of the fetch's properties.
    public var keys: [String] { map(\.key) }

    /// The values, in the order of their keys.
    public var values: [FetchedValue] { slots.compactMap { $0 } }

    /// The same entries as a Swift dictionary.
    public var dictionary: [String: FetchedValue] {
        Dictionary(map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// The entries with a value, in the order of the fetch's properties.
    public struct Iterator: IteratorProtocol {
        fileprivate let row: FetchedDictionary
        fileprivate var position = 0

        public mutating func next() -> (key: String, value: FetchedValue)? {
            while position < row.slots.count {
                defer { position += 1 }
                if let value = row.slots[position] { return (row.layout.names[position], value) }
            }
            return nil
        }
    }

    public func makeIterator() -> Iterator { Iterator(row: self) }

    public static func == (lhs: FetchedDictionary, rhs: FetchedDictionary) -> Bool {
        if lhs.layout === rhs.layout || lhs.layout.names == rhs.layout.names { return lhs.slots == rhs.slots }
        guard lhs.count == rhs.count else { return false }
        return lhs.allSatisfy { rhs[$0.key] == $0.value }
    }

    /// Independent of the entries' order, as a dictionary's hash is.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for (key, value) in self {
            var entry = Hasher()
            entry.combine(key)
            entry.combine(value)
            combined ^= entry.finalize()
        }
        hasher.combine(combined)
    }

    /// The entries in the order of the fetch's properties: `["title": Dune, "category": BookCategory/p1]`.
    public var description: String {
        isEmpty ? "[:]" : "[" + map { "\(String(reflecting: $0.key)): \($0.value)" }.joined(separator: ", ") + "]"
    }
}
