import Foundation

/// Sums, averages and extremes shared by `@sum`/`@avg`/`@min`/`@max` and the
/// `sum:`/`average:`/`min:`/`max:`/`median:`/`mode:`/`stddev:` functions. nil members are skipped.
enum PredicateStatistics {
    /// The numbers among `values` (nil skipped); anything else throws.
    static func numbers(_ values: [PredicateValue], for name: String) throws -> [AttributeValue] {
        try values.compactMap { value in
            if value.isNull { return nil }
            guard case .attribute(let a) = value, a.isNumber, a.stringValue == nil else {
                throw PredicateEvaluationError("\(name) needs numbers, not \(ValueComparison.kind(of: value))")
            }
            return a
        }
    }

    /// The sum: an integer when every term is, else a decimal or a double; 0 when empty.
    static func sum(_ values: [PredicateValue]) throws -> PredicateValue {
        let terms = try numbers(values, for: "sum")
        var total: PredicateValue = .integer(0)
        for term in terms { total = try PredicateArithmetic.apply(.add, total, .attribute(term)) }
        return total
    }

    /// The mean, or nil for no values.
    static func average(_ values: [PredicateValue]) throws -> PredicateValue? {
        let terms = try numbers(values, for: "average")
        guard !terms.isEmpty else { return nil }
        let total = terms.reduce(0.0) { $0 + ($1.doubleValue ?? 0) }
        return .double(total / Double(terms.count))
    }

    /// The least or greatest value by `compare:`, or nil for no values.
    static func extreme(_ values: [PredicateValue], wantMaximum: Bool) throws -> PredicateValue {
        var best: PredicateValue = .null
        for value in values where !value.isNull {
            if best.isNull {
                best = value
                continue
            }
            let order = try ValueComparison.order(value, best, options: [])
            if wantMaximum ? order == .orderedDescending : order == .orderedAscending { best = value }
        }
        return best
    }

    static func median(_ values: [PredicateValue]) throws -> PredicateValue {
        let sorted = try numbers(values, for: "median").compactMap(\.doubleValue).sorted()
        guard !sorted.isEmpty else { return .null }
        let middle = sorted.count / 2
        return .double(sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2)
    }

    /// The most frequent values, as an array (all of them when tied).
    static func mode(_ values: [PredicateValue]) throws -> PredicateValue {
        let present = values.filter { !$0.isNull }
        var counts: [(value: PredicateValue, count: Int)] = []
        for value in present {
            if let i = counts.firstIndex(where: { ValueComparison.equal($0.value, value) }) {
                counts[i].count += 1
            } else {
                counts.append((value, 1))
            }
        }
        let top = counts.map(\.count).max() ?? 0
        return .array(counts.filter { $0.count == top }.map(\.value))
    }

    /// The population standard deviation.
    static func standardDeviation(_ values: [PredicateValue]) throws -> PredicateValue {
        let doubles = try numbers(values, for: "stddev").compactMap(\.doubleValue)
        guard !doubles.isEmpty else { return .null }
        let mean = doubles.reduce(0, +) / Double(doubles.count)
        let variance = doubles.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(doubles.count)
        return .double(variance.squareRoot())
    }
}
