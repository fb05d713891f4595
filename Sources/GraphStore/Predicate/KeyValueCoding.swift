import Foundation

/// Key-value coding over predicate values, as `valueForKeyPath:` behaves.
///
/// A key on a collection maps over its elements without flattening (so
/// `children.toys.name` is an array of arrays), nil members stay nil, and `@count`,
/// `@sum`, `@avg`, `@min`, `@max` and the `@…unionOf…` operators consume the rest of the path.
enum KeyValueCoding {
    /// The most keys a key path may have. A key on a collection maps over its elements
    /// without flattening, so each to-many key nests the value one level deeper and every
    /// key after it walks all the levels: a path's cost grows with the square of its length
    /// (4,000 keys took 15 s on three rows). Real key paths have a handful of keys; SQLite
    /// joins at most 64 tables in one SELECT, so a longer path of to-one keys could not be
    /// compiled either.
    static let maximumKeyPathLength = 64

    /// Says that a key path is past ``maximumKeyPathLength``.
    static var keyPathTooLong: String { "a key path may have at most \(maximumKeyPathLength) keys" }

    static func value(of base: PredicateValue, forKeyPath path: ArraySlice<String>) throws -> PredicateValue {
        guard path.count <= maximumKeyPathLength else { throw PredicateEvaluationError(keyPathTooLong) }
        var current = base
        var remaining = path
        while let key = remaining.first {
            remaining = remaining.dropFirst()
            if key.hasPrefix("@") { return try collectionOperator(key, on: current, rest: remaining) }
            current = try value(of: current, forKey: key)
        }
        return current
    }

    static func value(of base: PredicateValue, forKey key: String) throws -> PredicateValue {
        if key == "self" { return base }
        switch base {
        case .null:
            return .null
        case .object(let object):
            return object.value(forKey: key)
        case .array(let elements):
            try stopIfInterrupted()
            return .array(try elements.map { try value(of: $0, forKey: key) })
        case .set(let elements):
            try stopIfInterrupted()
            return .set(distinct(try elements.map { try value(of: $0, forKey: key) }))
        case .attribute(.string(let text)) where key == "length":
            return .integer(Int64(text.utf16.count))
        case .attribute:
            throw PredicateEvaluationError(
                "\(ValueComparison.kind(of: base)) is not key-value coding-compliant for the key '\(key)'")
        }
    }

    static func collectionOperator(_ name: String, on base: PredicateValue, rest: ArraySlice<String>) throws
        -> PredicateValue
    {
        let elements: [PredicateValue]
        switch base {
        case .null: return .null
        case .array(let e), .set(let e): elements = e
        case .object(let dictionary as KeyValueDictionary) where name == "@count":
            return .integer(Int64(dictionary.entries.count))
        default:
            throw PredicateEvaluationError("\(name) needs a collection, not \(ValueComparison.kind(of: base))")
        }
        if name == "@count" { return .integer(Int64(elements.count)) }
        let mapped = rest.isEmpty ? elements : try elements.map { try value(of: $0, forKeyPath: rest) }
        switch name {
        case "@sum": return try PredicateStatistics.sum(mapped)
        case "@avg": return try PredicateStatistics.average(mapped) ?? .integer(0)
        case "@min": return try PredicateStatistics.extreme(mapped, wantMaximum: false)
        case "@max": return try PredicateStatistics.extreme(mapped, wantMaximum: true)
        case "@unionOfObjects": return .array(mapped.filter { !$0.isNull })
        case "@distinctUnionOfObjects": return .array(distinct(mapped.filter { !$0.isNull }))
        case "@unionOfArrays", "@unionOfSets", "@distinctUnionOfArrays", "@distinctUnionOfSets":
            var flat: [PredicateValue] = []
            for member in mapped where !member.isNull {
                guard let inner = member.collectionElements else {
                    throw PredicateEvaluationError("\(name) needs a collection of collections")
                }
                flat.append(contentsOf: inner.filter { !$0.isNull })
            }
            return .array(name.hasPrefix("@distinct") ? distinct(flat) : flat)
        default:
            throw PredicateEvaluationError("unknown collection operator \(name)")
        }
    }

    /// The values without repeats (by `isEqual:`), in first-seen order.
    static func distinct(_ values: [PredicateValue]) -> [PredicateValue] {
        var kept = ValueBuckets()
        for value in values { _ = kept.insert(value) }
        return kept.values
    }

    /// Throws when the store operation running this evaluation was interrupted: a key
    /// mapped over a large collection is the one long step between two rows, where SQLite's
    /// own interrupt cannot reach.
    static func stopIfInterrupted() throws {
        if MatchInterruption.current?.isRequested == true { throw PredicateEvaluationError.interrupted }
    }
}
