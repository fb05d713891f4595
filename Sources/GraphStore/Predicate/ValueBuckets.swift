import Foundation

/// Values grouped by a hash that agrees with ``ValueComparison/equal(_:_:options:)`` (with no
/// options): equal values always share a bucket, so finding a value's equal compares it with
/// its bucket only. This keeps `distinct` and the equality of two sets linear in their size,
/// where comparing every pair cost the square (a to-many key path over 2,000 books ran for
/// minutes).
struct ValueBuckets {
    private(set) var values: [PredicateValue] = []
    private var indices: [Int: [Int]] = [:]

    /// Buckets holding `values`.
    init(_ values: [PredicateValue] = []) {
        for value in values { append(value) }
    }

    /// Whether an equal value is held.
    func contains(_ value: PredicateValue) -> Bool {
        indices[Self.hash(of: value)]?.contains { ValueComparison.equal(values[$0], value) } ?? false
    }

    /// Adds a value.
    mutating func append(_ value: PredicateValue) {
        indices[Self.hash(of: value), default: []].append(values.count)
        values.append(value)
    }

    /// Adds a value unless an equal one is held; says whether it was added.
    mutating func insert(_ value: PredicateValue) -> Bool {
        if contains(value) { return false }
        append(value)
        return true
    }

    /// A hash equal values share. Numbers of every kind hash by their value as a double (an
    /// integer equals the same double); what equality does not look into (an object without
    /// identity, a dictionary's entries) hashes coarsely.
    static func hash(of value: PredicateValue) -> Int {
        var hasher = Hasher()
        switch value {
        case .null:
            hasher.combine(0)
        case .attribute(let attribute):
            combine(attribute, into: &hasher)
        case .array(let elements):
            hasher.combine(2)
            for element in elements { hasher.combine(hash(of: element)) }
        case .set(let elements):
            // Order-free: the sum of the elements' hashes.
            hasher.combine(3)
            hasher.combine(elements.reduce(0) { $0 &+ hash(of: $1) })
        case .object(let object):
            hasher.combine(4)
            if let identity = object.objectIdentity {
                hasher.combine(identity)
            } else if let dictionary = object as? KeyValueDictionary {
                hasher.combine(dictionary.entries.count)
            }
        }
        return hasher.finalize()
    }

    private static func combine(_ attribute: AttributeValue, into hasher: inout Hasher) {
        if attribute.isNumber {
            hasher.combine(1)
            hasher.combine(attribute.doubleValue ?? 0)
            return
        }
        switch attribute {
        case .string(let text): hasher.combine(text)
        case .date(let date): hasher.combine(date)
        case .data(let data): hasher.combine(data)
        case .uuid(let uuid): hasher.combine(uuid)
        case .uri(let uri): hasher.combine(uri)
        default: hasher.combine(5)
        }
    }
}
