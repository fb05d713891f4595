import Foundation

/// Arithmetic and bitwise operators on numbers, as `NSExpression` computes them.
///
/// Integers stay integers while exact (`/` between integers truncates, as on Apple),
/// falling back to Double on overflow; a decimal operand keeps the result decimal; a
/// double operand makes it double. Non-numbers (nil included) throw.
enum PredicateArithmetic {
    private enum Number {
        case integer(Int64)
        case decimal(Decimal)
        case double(Double)
    }

    private static func number(_ value: PredicateValue, for symbol: String) throws -> Number {
        guard case .attribute(let a) = value else {
            throw PredicateEvaluationError("'\(symbol)' needs numbers, not \(ValueComparison.kind(of: value))")
        }
        switch a {
        case .integer(let v): return .integer(v)
        case .bool(let v): return .integer(v ? 1 : 0)
        case .double(let v): return .double(v)
        case .decimal(let v): return .decimal(v)
        default: throw PredicateEvaluationError("'\(symbol)' needs numbers, not \(ValueComparison.kind(of: value))")
        }
    }

    private static func double(_ n: Number) -> Double {
        switch n {
        case .integer(let v): Double(v)
        case .double(let v): v
        case .decimal(let v): NSDecimalNumber(decimal: v).doubleValue
        }
    }

    private static func decimal(_ n: Number) -> Decimal? {
        switch n {
        case .integer(let v): Decimal(v)
        case .decimal(let v): v
        case .double: nil
        }
    }

    /// An Int64 for bitwise operators: integers, or doubles that are whole and in range.
    private static func bits(_ n: Number, for symbol: String) throws -> Int64 {
        switch n {
        case .integer(let v): return v
        case .double(let v) where v.rounded() == v && abs(v) < 9.2e18: return Int64(v)
        case .decimal(let v):
            let d = NSDecimalNumber(decimal: v).doubleValue
            if d.rounded() == d, abs(d) < 9.2e18 { return Int64(d) }
        default: break
        }
        throw PredicateEvaluationError("'\(symbol)' needs whole numbers")
    }

    static func apply(_ op: ArithmeticOperator, _ left: PredicateValue, _ right: PredicateValue) throws
        -> PredicateValue
    {
        let a = try number(left, for: op.symbol)
        let b = try number(right, for: op.symbol)
        switch op {
        case .add, .subtract, .multiply, .divide:
            return try basic(op, a, b)
        case .power:
            return .double(pow(double(a), double(b)))
        case .bitwiseAnd:
            return .integer(try bits(a, for: op.symbol) & bits(b, for: op.symbol))
        case .bitwiseOr:
            return .integer(try bits(a, for: op.symbol) | bits(b, for: op.symbol))
        case .bitwiseXor:
            return .integer(try bits(a, for: op.symbol) ^ bits(b, for: op.symbol))
        case .leftShift:
            return .integer(try bits(a, for: op.symbol) << bits(b, for: op.symbol))
        case .rightShift:
            return .integer(try bits(a, for: op.symbol) >> bits(b, for: op.symbol))
        }
    }

    private static func basic(_ op: ArithmeticOperator, _ a: Number, _ b: Number) throws -> PredicateValue {
        if case .integer(let x) = a, case .integer(let y) = b {
            let (result, overflow): (Int64, Bool)
            switch op {
            case .add: (result, overflow) = x.addingReportingOverflow(y)
            case .subtract: (result, overflow) = x.subtractingReportingOverflow(y)
            case .multiply: (result, overflow) = x.multipliedReportingOverflow(by: y)
            default:
                if y == 0 { throw PredicateEvaluationError("division by zero") }
                (result, overflow) = x.dividedReportingOverflow(by: y)
            }
            if !overflow { return .integer(result) }
        } else if let x = decimal(a), let y = decimal(b) {
            switch op {
            case .add: return .attribute(.decimal(x + y))
            case .subtract: return .attribute(.decimal(x - y))
            case .multiply: return .attribute(.decimal(x * y))
            default:
                if y == 0 { throw PredicateEvaluationError("division by zero") }
                return .attribute(.decimal(x / y))
            }
        }
        let x = double(a)
        let y = double(b)
        switch op {
        case .add: return .double(x + y)
        case .subtract: return .double(x - y)
        case .multiply: return .double(x * y)
        default: return .double(x / y)
        }
    }

    static func apply(_ op: UnaryOperator, _ operand: PredicateValue) throws -> PredicateValue {
        let n = try number(operand, for: op.rawValue)
        switch op {
        case .negate:
            switch n {
            case .integer(let v): return v == Int64.min ? .double(-Double(v)) : .integer(-v)
            case .double(let v): return .double(-v)
            case .decimal(let v): return .attribute(.decimal(-v))
            }
        case .onesComplement:
            return .integer(~(try bits(n, for: op.rawValue)))
        }
    }

    /// `modulus:by:`: integer remainder, or `fmod` for non-integers.
    static func modulus(_ left: PredicateValue, _ right: PredicateValue) throws -> PredicateValue {
        let a = try number(left, for: "modulus:by:")
        let b = try number(right, for: "modulus:by:")
        if case .integer(let x) = a, case .integer(let y) = b {
            if y == 0 { throw PredicateEvaluationError("modulus by zero") }
            let (result, overflow) = x.remainderReportingOverflow(dividingBy: y)
            return .integer(overflow ? 0 : result)
        }
        return .double(fmod(double(a), double(b)))
    }

    /// A one-argument math function on a number, keeping integers where the result is exact.
    static func math(_ function: BuiltinFunction, _ value: PredicateValue) throws -> PredicateValue {
        let n = try number(value, for: function.rawValue)
        if case .integer(let v) = n {
            switch function {
            case .floor, .ceiling, .trunc: return .integer(v)
            case .abs: return v == Int64.min ? .double(-Double(v)) : .integer(Swift.abs(v))
            default: break
            }
        }
        let x = double(n)
        switch function {
        case .sqrt: return .double(x.squareRoot())
        case .log: return .double(log10(x))
        case .ln: return .double(Foundation.log(x))
        case .exp: return .double(Foundation.exp(x))
        case .floor: return .double(x.rounded(.down))
        case .ceiling: return .double(x.rounded(.up))
        case .trunc: return .double(x.rounded(.towardZero))
        case .abs: return .double(Swift.abs(x))
        default: throw PredicateEvaluationError("\(function.rawValue) is not a one-number function")
        }
    }
}
