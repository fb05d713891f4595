import Foundation

/// One line of a predicate vector file (`vectors.jsonl`): a format string, the object to
/// evaluate it against, and what must happen.
///
/// JSON conventions: `{"$date": "ISO8601"}` is a date anywhere; other JSON objects are
/// dictionaries; JSON `null` is nil; `expect` is `true`, `false`, `"parse_error"` or
/// `"eval_error"`.
///
/// ```swift
/// let line = #"{"id": "cmp-001", "format": "age = 30", "object": {"age": 30}, "expect": true}"#
/// let vector = try PredicateVector(jsonLine: line)
/// vector.check()   // nil: it passes
/// ```
public struct PredicateVector: Sendable {
    /// What a vector requires.
    public enum Expectation: Sendable, Equatable {
        /// Parses, and evaluates to this.
        case result(Bool)
        /// `predicateWithFormat:` must throw.
        case parseError
        /// Parses, but evaluation must throw.
        case evaluationError
    }

    /// `cmp-001`: construct prefix and number.
    public var id: String
    /// The text given to `ObjectPredicate(format:)`.
    public var format: String
    /// What the predicate is evaluated against (`SELF`).
    public var object: PredicateValue
    /// The required outcome.
    public var expectation: Expectation
    /// The expected `predicateFormat` of the parsed predicate, where a source shows it.
    public var canonical: String?
    /// Values for the format specifiers, in order.
    public var arguments: [PredicateValue]
    /// `$VARIABLE` bindings used when evaluating.
    public var variables: [String: PredicateValue]
    /// The vector's remark (`DISPUTED: …`, `LOW CONFIDENCE: …`), if any.
    public var note: String?

    /// The construct a vector exercises: its id without the trailing number (`lit-str`).
    public var construct: String {
        guard let dash = id.lastIndex(of: "-"), id[id.index(after: dash)...].allSatisfy(\.isNumber) else { return id }
        return String(id[..<dash])
    }

    /// Decodes one JSON line.
    public init(jsonLine: String) throws {
        let json = try JSONDecoder().decode(VectorJSON.self, from: Data(jsonLine.utf8))
        guard case .object(let fields) = json else { throw PredicateEvaluationError("a vector must be a JSON object") }
        guard case .string(let id)? = fields["id"], case .string(let format)? = fields["format"] else {
            throw PredicateEvaluationError("a vector needs a string id and format")
        }
        self.id = id
        self.format = format
        object = fields["object"]?.predicateValue ?? .dictionary([:])
        switch fields["expect"] {
        case .bool(let value)?: expectation = .result(value)
        case .string("parse_error")?: expectation = .parseError
        case .string("eval_error")?: expectation = .evaluationError
        default: throw PredicateEvaluationError("vector \(id): unknown expect value")
        }
        if case .string(let text)? = fields["canonical"] { canonical = text }
        if case .array(let values)? = fields["args"] { arguments = values.map(\.predicateValue) } else { arguments = [] }
        if case .object(let bindings)? = fields["vars"] {
            variables = bindings.mapValues(\.predicateValue)
        } else {
            variables = [:]
        }
        if case .string(let text)? = fields["note"] { note = text }
    }

    /// Runs the vector: nil if it passes, else why it failed.
    public func check() -> String? {
        let predicate: ObjectPredicate
        do {
            predicate = try ObjectPredicate(format: format, argumentArray: arguments)
        } catch {
            if expectation == .parseError { return nil }
            return "parse failed: \(error)"
        }
        if expectation == .parseError {
            return "parsed as `\(predicate.predicateFormat)` but a parse error was expected"
        }
        if let canonical, predicate.predicateFormat != canonical {
            return "canonical text `\(predicate.predicateFormat)`, expected `\(canonical)`"
        }
        do {
            let result = try predicate.evaluate(withValue: object, substitutionVariables: variables)
            switch expectation {
            case .result(let expected) where expected == result: return nil
            case .result(let expected): return "evaluated to \(result), expected \(expected)"
            default: return "evaluated to \(result) but an evaluation error was expected"
            }
        } catch {
            if expectation == .evaluationError { return nil }
            return "evaluation failed: \(error)"
        }
    }
}

/// A JSON value as the vector files use it; integers are kept apart from doubles.
enum VectorJSON: Decodable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([VectorJSON])
    case object([String: VectorJSON])

    init(from decoder: any Decoder) throws {
        if var list = try? decoder.unkeyedContainer() {
            var elements: [VectorJSON] = []
            while !list.isAtEnd { elements.append(try list.decode(VectorJSON.self)) }
            self = .array(elements)
            return
        }
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            var fields: [String: VectorJSON] = [:]
            for key in keyed.allKeys { fields[key.stringValue] = try keyed.decode(VectorJSON.self, forKey: key) }
            self = .object(fields)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? single.decode(Double.self) {
            self = .double(value)
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The predicate value: `{"$date": …}` is a date, other objects are dictionaries.
    var predicateValue: PredicateValue {
        switch self {
        case .null: return .null
        case .bool(let v): return .bool(v)
        case .integer(let v): return .integer(v)
        case .double(let v): return .double(v)
        case .string(let v): return .string(v)
        case .array(let elements): return .array(elements.map(\.predicateValue))
        case .object(let fields):
            if fields.count == 1, case .string(let text)? = fields["$date"], let date = VectorJSON.date(text) {
                return .date(date)
            }
            return .dictionary(fields.mapValues(\.predicateValue))
        }
    }

    static func date(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        return try? Date(text, strategy: fractional)
    }
}
