import Foundation

/// Built-in functions, `FUNCTION(receiver, 'selector', …)` and `CAST`.
enum PredicateFunctions {
    static func call(_ function: BuiltinFunction, _ arguments: [PredicateValue]) throws -> PredicateValue {
        // Statistics take one collection, or a list of values.
        var values: [PredicateValue] {
            if arguments.count == 1, let elements = arguments[0].collectionElements { return elements }
            return arguments
        }
        switch function {
        case .sum: return try PredicateStatistics.sum(values)
        case .count: return .integer(Int64(values.count))
        case .min: return try PredicateStatistics.extreme(values, wantMaximum: false)
        case .max: return try PredicateStatistics.extreme(values, wantMaximum: true)
        case .average: return try PredicateStatistics.average(values) ?? .null
        case .median: return try PredicateStatistics.median(values)
        case .mode: return try PredicateStatistics.mode(values)
        case .stddev: return try PredicateStatistics.standardDeviation(values)
        case .add: return try PredicateArithmetic.apply(.add, arguments[0], arguments[1])
        case .subtract: return try PredicateArithmetic.apply(.subtract, arguments[0], arguments[1])
        case .multiply: return try PredicateArithmetic.apply(.multiply, arguments[0], arguments[1])
        case .divide: return try PredicateArithmetic.apply(.divide, arguments[0], arguments[1])
        case .modulus: return try PredicateArithmetic.modulus(arguments[0], arguments[1])
        case .raise: return try PredicateArithmetic.apply(.power, arguments[0], arguments[1])
        case .bitwiseAnd: return try PredicateArithmetic.apply(.bitwiseAnd, arguments[0], arguments[1])
        case .bitwiseOr: return try PredicateArithmetic.apply(.bitwiseOr, arguments[0], arguments[1])
        case .bitwiseXor: return try PredicateArithmetic.apply(.bitwiseXor, arguments[0], arguments[1])
        case .leftShift: return try PredicateArithmetic.apply(.leftShift, arguments[0], arguments[1])
        case .rightShift: return try PredicateArithmetic.apply(.rightShift, arguments[0], arguments[1])
        case .onesComplement: return try PredicateArithmetic.apply(.onesComplement, arguments[0])
        case .sqrt, .log, .ln, .exp, .floor, .ceiling, .abs, .trunc:
            return try PredicateArithmetic.math(function, arguments[0])
        case .uppercase, .lowercase:
            if arguments[0].isNull { return .null }
            guard let text = arguments[0].stringValue else {
                throw PredicateEvaluationError("\(function.rawValue) needs a string")
            }
            return .string(function == .uppercase ? text.uppercased() : text.lowercased())
        case .random:
            return .double(Double.random(in: 0..<1))
        case .randomBelow:
            guard let limit = arguments[0].attributeValue?.integerValue, limit > 0 else {
                throw PredicateEvaluationError("random: needs a positive whole number")
            }
            return .integer(Int64.random(in: 0..<limit))
        case .now:
            return .date(Date())
        case .noindex:
            return arguments[0]
        case .length:
            if let text = arguments[0].stringValue { return .integer(Int64(text.utf16.count)) }
            if let elements = arguments[0].collectionElements { return .integer(Int64(elements.count)) }
            throw PredicateEvaluationError("length: needs a string")
        case .castObject:
            guard let type = arguments[1].stringValue else {
                throw PredicateEvaluationError("castObject:toType: needs a type name")
            }
            return try cast(arguments[0], to: type)
        }
    }

    /// `FUNCTION(receiver, 'selector', args…)`: the common NSString, NSNumber and
    /// collection methods; a selector without arguments on an object reads that key.
    static func send(_ selector: String, to receiver: PredicateValue, _ arguments: [PredicateValue]) throws
        -> PredicateValue
    {
        if receiver.isNull { return .null }
        if case .object(let object) = receiver, let answering = object as? any SelectorReceiver,
            let answer = try answering.perform(selector, arguments)
        {
            return answer
        }
        let strings = arguments.compactMap(\.stringValue)
        if let text = receiver.stringValue {
            switch (selector, strings.count, arguments.count) {
            case ("stringByReplacingOccurrencesOfString:withString:", 2, 2):
                return .string(text.replacingOccurrences(of: strings[0], with: strings[1]))
            case ("stringByAppendingString:", 1, 1): return .string(text + strings[0])
            case ("hasPrefix:", 1, 1): return .bool(text.hasPrefix(strings[0]))
            case ("hasSuffix:", 1, 1): return .bool(text.hasSuffix(strings[0]))
            case ("containsString:", 1, 1): return .bool(text.contains(strings[0]))
            case ("uppercaseString", 0, 0): return .string(text.uppercased())
            case ("lowercaseString", 0, 0): return .string(text.lowercased())
            case ("capitalizedString", 0, 0): return .string(text.capitalized)
            case ("length", 0, 0): return .integer(Int64(text.utf16.count))
            case ("description", 0, 0), ("stringValue", 0, 0), ("copy", 0, 0): return receiver
            case ("intValue", 0, 0), ("integerValue", 0, 0), ("longLongValue", 0, 0),
                ("doubleValue", 0, 0), ("floatValue", 0, 0), ("boolValue", 0, 0):
                return try cast(receiver, to: "NSNumber")
            default: break
            }
        }
        if case .attribute(let value) = receiver, value.isNumber, arguments.isEmpty {
            switch selector {
            case "stringValue", "description": return try cast(receiver, to: "NSString")
            case "intValue", "integerValue", "longLongValue":
                let truncated = (value.doubleValue ?? 0).rounded(.towardZero)
                if let exact = value.integerValue ?? Int64(exactly: truncated) { return .integer(exact) }
                throw PredicateEvaluationError("\(selector): the number does not fit an integer")
            case "doubleValue", "floatValue": return .double(value.doubleValue ?? 0)
            case "boolValue": return .bool((value.doubleValue ?? 0) != 0)
            default: break
            }
        }
        if let elements = receiver.collectionElements {
            switch (selector, arguments.count) {
            case ("count", 0): return .integer(Int64(elements.count))
            case ("firstObject", 0): return elements.first ?? .null
            case ("lastObject", 0): return elements.last ?? .null
            case ("objectAtIndex:", 1):
                guard let i = arguments[0].attributeValue?.integerValue, i >= 0, i < elements.count else {
                    throw PredicateEvaluationError("objectAtIndex: index out of range")
                }
                return elements[Int(i)]
            default: break
            }
        }
        if case .object(let object) = receiver, arguments.isEmpty, !selector.contains(":") {
            return object.value(forKey: selector)
        }
        throw PredicateEvaluationError("unsupported FUNCTION selector '\(selector)' for \(ValueComparison.kind(of: receiver))")
    }

    /// `CAST(value, 'NSDate' | 'NSNumber' | 'NSDecimalNumber' | 'NSString')`.
    static func cast(_ value: PredicateValue, to type: String) throws -> PredicateValue {
        if value.isNull { return .null }
        guard case .attribute(let a) = value else {
            throw PredicateEvaluationError("cannot CAST \(ValueComparison.kind(of: value)) to \(type)")
        }
        switch type {
        case "NSDate":
            if case .date = a { return value }
            if a.stringValue == nil, let seconds = a.doubleValue {
                return .date(Date(timeIntervalSinceReferenceDate: seconds))
            }
            if let text = a.stringValue, let seconds = Double(text.trimmingCharacters(in: .whitespaces)) {
                return .date(Date(timeIntervalSinceReferenceDate: seconds))
            }
            if let text = a.stringValue, let date = try? ISO8601DateText.date(from: text) { return .date(date) }
        case "NSNumber", "NSDecimalNumber":
            switch a {
            case .integer, .double, .decimal, .bool:
                if type == "NSDecimalNumber", let d = ValueComparison.decimal(a) { return .attribute(.decimal(d)) }
                return value
            case .date(let d): return .double(d.timeIntervalSinceReferenceDate)
            case .string(let text):
                // Like -[NSString doubleValue]: leading number, else 0.
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                if let i = Int64(trimmed) { return .integer(i) }
                if let d = Double(trimmed), d.isFinite { return .double(d) }
                return .integer(0)
            default: break
            }
        case "NSString":
            switch a {
            case .string: return value
            case .integer(let v): return .string(String(v))
            case .double(let v): return .string(PredicateFormatter.number(v))
            case .bool(let v): return .string(v ? "1" : "0")
            default: return .string(a.description)
            }
        default:
            break
        }
        throw PredicateEvaluationError("cannot CAST \(ValueComparison.kind(of: value)) to \(type)")
    }
}
