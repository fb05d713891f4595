/// The functions `NSExpression` knows by name, with Apple's selector-style names.
///
/// A format string may call them by their first word (`sum({1, 2})`, `now()`) or by the
/// full name (`sum:({1, 2})`); `predicateFormat` prints the full name, as Apple does.
///
/// ```swift
/// BuiltinFunction(name: "sum")?.rawValue   // "sum:"
/// ```
public enum BuiltinFunction: String, Sendable, Hashable, CaseIterable {
    case sum = "sum:"
    case count = "count:"
    case min = "min:"
    case max = "max:"
    case average = "average:"
    case median = "median:"
    case mode = "mode:"
    case stddev = "stddev:"
    case add = "add:to:"
    case subtract = "from:subtract:"
    case multiply = "multiply:by:"
    case divide = "divide:by:"
    case modulus = "modulus:by:"
    case sqrt = "sqrt:"
    case log = "log:"
    case ln = "ln:"
    case raise = "raise:toPower:"
    case exp = "exp:"
    case floor = "floor:"
    case ceiling = "ceiling:"
    case abs = "abs:"
    case trunc = "trunc:"
    case uppercase = "uppercase:"
    case lowercase = "lowercase:"
    case random = "random"
    case randomBelow = "random:"
    case now = "now"
    case bitwiseAnd = "bitwiseAnd:with:"
    case bitwiseOr = "bitwiseOr:with:"
    case bitwiseXor = "bitwiseXor:with:"
    case leftShift = "leftshift:by:"
    case rightShift = "rightshift:by:"
    case onesComplement = "onesComplement:"
    case noindex = "noindex:"
    case length = "length:"
    case castObject = "castObject:toType:"

    /// The function named `name`: a full selector (`"add:to:"`) or its first word (`"add"`),
    /// case-insensitively; `argumentCount` tells `random` (none) from `random:` (one).
    public init?(name: String, argumentCount: Int? = nil) {
        let lowered = name.lowercased()
        if lowered == "random" {
            self = (argumentCount ?? 0) > 0 ? .randomBelow : .random
            return
        }
        if let exact = BuiltinFunction.allCases.first(where: { $0.rawValue.lowercased() == lowered }) {
            self = exact
            return
        }
        guard !lowered.contains(":") else { return nil }
        guard let match = BuiltinFunction.allCases.first(where: { $0.firstWord.lowercased() == lowered }) else {
            return nil
        }
        self = match
    }

    /// The name before the first colon (`"add"` for `add:to:`).
    public var firstWord: String { String(rawValue.prefix { $0 != ":" }) }

    /// How many arguments the function takes; `nil` for the statistics functions, which
    /// take one collection or a list of values.
    public var arity: Int? {
        switch self {
        case .sum, .count, .min, .max, .average, .median, .mode, .stddev: nil
        case .random, .now: 0
        case .add, .subtract, .multiply, .divide, .modulus, .raise, .bitwiseAnd, .bitwiseOr, .bitwiseXor,
            .leftShift, .rightShift, .castObject:
            2
        default: 1
        }
    }
}
