/// The SQL functions a store registers so that compiled predicates compare strings
/// exactly as the in-memory evaluator does.
///
/// Each one calls the same `StringMatching` code as `evaluate(with:)`, so `[c]`, `[d]`,
/// LIKE's `*`/`?`, anchored MATCHES and grapheme-aware BEGINSWITH give the same answers
/// in SQL and in memory. The last argument is the `ComparisonOptions` raw value. All but
/// `GS_COMPARE`, `GS_FOLD` and `GS_FUNCTION` return 1 or 0, never NULL, so that `NOT` stays
/// two-valued. `GS_FUNCTION` sends `FUNCTION`'s selector to a string through the evaluator's
/// own code (`PredicateFunctions.send`).
enum PredicateSQLFunction: String, CaseIterable, Sendable {
    /// `GS_EQUALS(a, b, options)`: string equality with folding; NULL equals NULL.
    case equals = "GS_EQUALS"
    /// `GS_COMPARE(a, b, options)`: -1, 0 or 1 with folding; NULL when either is NULL.
    case compare = "GS_COMPARE"
    /// `GS_BEGINSWITH(text, prefix, options)`.
    case beginsWith = "GS_BEGINSWITH"
    /// `GS_ENDSWITH(text, suffix, options)`.
    case endsWith = "GS_ENDSWITH"
    /// `GS_CONTAINS(text, part, options)`.
    case contains = "GS_CONTAINS"
    /// `GS_LIKE(text, pattern, options)`: `*` any run, `?` one character, `\` escapes.
    case like = "GS_LIKE"
    /// `GS_MATCHES(text, regex, options)`: ICU regular expression over the whole string.
    case matches = "GS_MATCHES"
    /// `GS_FOLD(text, options)`: the text as `[c]`/`[d]` compare it (sort keys).
    case fold = "GS_FOLD"
    /// `GS_FUNCTION(selector, receiver, arguments…)`: `FUNCTION(receiver, 'selector', arguments…)`
    /// on a string (see ``PredicateSQLCompiler/stringSelectors``); NULL for a NULL receiver.
    case function = "GS_FUNCTION"

    /// The SQL name.
    var name: String { rawValue }

    /// How many arguments the function takes (-1: any number, for `GS_FUNCTION`).
    var argumentCount: Int32 {
        switch self {
        case .fold: 2
        case .function: -1
        default: 3
        }
    }

    /// Runs the function on SQLite's arguments, read in place: ASCII operands are answered
    /// from their bytes (see `PredicateSQLFunction+ASCII.swift`), anything else as Swift strings.
    func call(_ arguments: SQLFunctionArguments) throws -> SQLiteValue {
        if let answer = asciiAnswer(arguments) { return answer }
        return try call((0..<arguments.count).map { arguments.value($0) })
    }

    /// Runs the function on SQLite's arguments.
    func call(_ arguments: [SQLiteValue]) throws -> SQLiteValue {
        if self == .function { return try send(arguments) }
        let options = ComparisonOptions(rawValue: UInt(clamping: arguments.last?.integerValue ?? 0))
        switch self {
        case .fold:
            guard case .text(let text) = arguments[0] else { return arguments[0] }
            return .text(StringMatching.fold(text, options))
        case .equals:
            if arguments[0].isNull || arguments[1].isNull { return .integer(arguments[0].isNull && arguments[1].isNull ? 1 : 0) }
            guard case .text(let a) = arguments[0], case .text(let b) = arguments[1] else { return .integer(0) }
            return .integer(StringMatching.equal(a, b, options: options) ? 1 : 0)
        case .compare:
            guard case .text(let a) = arguments[0], case .text(let b) = arguments[1] else { return .null }
            return .integer(Int64(StringMatching.compare(a, b, options: options).rawValue))
        default:
            guard case .text(let text) = arguments[0], case .text(let pattern) = arguments[1] else { return .integer(0) }
            return .integer(try match(text, pattern, options) ? 1 : 0)
        }
    }

    /// `GS_FUNCTION`: the selector sent to the receiver with the arguments, as the evaluator sends it.
    private func send(_ arguments: [SQLiteValue]) throws -> SQLiteValue {
        guard arguments.count >= 2, case .text(let selector) = arguments[0] else {
            throw PredicateEvaluationError("GS_FUNCTION needs a selector and a receiver")
        }
        let result = try PredicateFunctions.send(selector, to: arguments[1].predicateValue, arguments.dropFirst(2).map(\.predicateValue))
        switch result {
        case .null: return .null
        case .attribute(.string(let text)): return .text(text)
        case .attribute(.bool(let flag)): return .integer(flag ? 1 : 0)
        case .attribute(.integer(let number)): return .integer(number)
        case .attribute(.double(let number)): return .real(number)
        default: throw PredicateEvaluationError("FUNCTION '\(selector)' gave \(ValueComparison.kind(of: result)), which SQL cannot hold")
        }
    }

    private func match(_ text: String, _ pattern: String, _ options: ComparisonOptions) throws -> Bool {
        switch self {
        case .beginsWith: StringMatching.hasPrefix(text, pattern, options: options)
        case .endsWith: StringMatching.hasSuffix(text, pattern, options: options)
        case .contains: StringMatching.contains(text, pattern, options: options)
        case .like: try StringMatching.like(text, pattern: pattern, options: options)
        case .matches: try StringMatching.matches(text, pattern: pattern, options: options)
        default: false
        }
    }
}

extension SQLiteValue {
    /// The value as a whole number, for the options argument of the registered functions.
    var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The value as the evaluator sees a stored value of its storage class.
    var predicateValue: PredicateValue {
        switch self {
        case .null: .null
        case .integer(let number): .integer(number)
        case .real(let number): .double(number)
        case .text(let text): .string(text)
        case .blob(let bytes): .attribute(.data(bytes))
        }
    }
}
