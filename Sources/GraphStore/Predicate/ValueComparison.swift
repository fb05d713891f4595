import Foundation

/// Equality (`isEqual:`) and ordering (`compare:`) between predicate values.
///
/// Numbers compare by value across integer, double, decimal and boolean (`YES == 1`);
/// a number never equals a string, and ordering a string against a number throws.
enum ValueComparison {
    static func equal(_ left: PredicateValue, _ right: PredicateValue, options: ComparisonOptions = []) -> Bool {
        switch (left, right) {
        case (.null, .null):
            return true
        case (.null, _), (_, .null):
            return false
        case (.attribute(let a), .attribute(let b)):
            return equal(a, b, options: options)
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1, options: options) }
        case (.set(let a), .set(let b)):
            guard a.count == b.count else { return false }
            if options.isEmpty, a.count > 8 {
                let members = ValueBuckets(b)
                return a.allSatisfy(members.contains)
            }
            return a.allSatisfy { x in b.contains { equal(x, $0, options: options) } }
        case (.object(let a), .object(let b)):
            if let idA = a.objectIdentity, let idB = b.objectIdentity { return idA == idB }
            if let dA = a as? KeyValueDictionary, let dB = b as? KeyValueDictionary {
                return dA.entries.count == dB.entries.count
                    && dA.entries.allSatisfy { key, value in
                        dB.entries[key].map { equal(value, $0, options: options) } ?? false
                    }
            }
            return false
        default:
            return false
        }
    }

    static func equal(_ a: AttributeValue, _ b: AttributeValue, options: ComparisonOptions) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)):
            return StringMatching.equal(x, y, options: options)
        case (.date(let x), .date(let y)):
            return x == y
        case (.data(let x), .data(let y)):
            return x == y
        case (.uuid(let x), .uuid(let y)):
            return x == y
        case (.uri(let x), .uri(let y)):
            return x == y
        default:
            guard a.isNumber, b.isNumber else { return false }
            return compareNumbers(a, b) == .orderedSame
        }
    }

    /// `compare:`; throws for values that have no order between them.
    static func order(_ left: PredicateValue, _ right: PredicateValue, options: ComparisonOptions) throws
        -> ComparisonResult
    {
        if case .attribute(let a) = left, case .attribute(let b) = right {
            switch (a, b) {
            case (.string(let x), .string(let y)):
                return StringMatching.compare(x, y, options: options)
            case (.date(let x), .date(let y)):
                return x == y ? .orderedSame : (x < y ? .orderedAscending : .orderedDescending)
            case (.uuid(let x), .uuid(let y)):
                return StringMatching.compare(x.uuidString, y.uuidString, options: [])
            default:
                if a.isNumber, b.isNumber { return compareNumbers(a, b) }
            }
        }
        throw PredicateEvaluationError("cannot compare \(kind(of: left)) with \(kind(of: right))")
    }

    /// Numeric order, exact for integers and decimals, through Double otherwise.
    static func compareNumbers(_ a: AttributeValue, _ b: AttributeValue) -> ComparisonResult {
        if let x = exactInteger(a), let y = exactInteger(b) {
            return x == y ? .orderedSame : (x < y ? .orderedAscending : .orderedDescending)
        }
        if let x = decimal(a), let y = decimal(b), isDecimal(a) || isDecimal(b) {
            return x == y ? .orderedSame : (x < y ? .orderedAscending : .orderedDescending)
        }
        let x = a.doubleValue ?? .nan
        let y = b.doubleValue ?? .nan
        if x == y { return .orderedSame }
        return x < y ? .orderedAscending : .orderedDescending
    }

    /// Integers and booleans (not doubles that happen to be whole).
    static func exactInteger(_ value: AttributeValue) -> Int64? {
        switch value {
        case .integer(let v): v
        case .bool(let v): v ? 1 : 0
        default: nil
        }
    }

    static func isDecimal(_ value: AttributeValue) -> Bool {
        if case .decimal = value { return true }
        return false
    }

    /// A Decimal for integers, booleans and decimals (doubles go through Double instead).
    static func decimal(_ value: AttributeValue) -> Decimal? {
        switch value {
        case .decimal(let v): v
        case .integer(let v): Decimal(v)
        case .bool(let v): v ? 1 : 0
        default: nil
        }
    }

    /// A short name of the value's kind, for error messages.
    static func kind(of value: PredicateValue) -> String {
        switch value {
        case .null: "nil"
        case .array: "an array"
        case .set: "a set"
        case .object: "an object"
        case .attribute(let a):
            switch a {
            case .string: "a string"
            case .integer, .double, .decimal: "a number"
            case .bool: "a boolean"
            case .date: "a date"
            case .data: "data"
            case .uuid: "a UUID"
            case .uri: "a URI"
            }
        }
    }
}
