import Foundation

/// What kind of value an SQL operand holds, so the compiler can reproduce Foundation's
/// typing: a number never equals a string, ordering a date against a number raises, and
/// so on. SQLite's own affinity rules would otherwise turn `'30'` into `30`.
enum SQLValueKind: Hashable, Sendable {
    /// Integers, doubles, decimals and booleans (which compare as numbers, `YES == 1`).
    case number
    case string
    case date
    case data
    case uuid
    case uri
    /// An object of the entity family stored in this root table (its `Z_PK`).
    case object(table: String)
    /// The nil constant.
    case null

    /// The kind of an attribute type's values, or nil for types whose stored form the
    /// compiler does not reason about.
    init?(_ type: AttributeType) {
        switch type {
        case .integer16, .integer32, .integer64, .decimal, .double, .float, .boolean: self = .number
        case .string: self = .string
        case .date: self = .date
        case .binaryData, .transformable, .objectID, .composite: self = .data
        case .uuid: self = .uuid
        case .uri: self = .uri
        case .undefined: return nil
        }
    }

    /// The kind of a scalar constant.
    init(_ value: AttributeValue) {
        switch value {
        case .integer, .double, .decimal, .bool: self = .number
        case .string: self = .string
        case .date: self = .date
        case .data: self = .data
        case .uuid: self = .uuid
        case .uri: self = .uri
        }
    }

    /// Whether `<`, `<=`, `>`, `>=` are defined between two kinds without raising.
    static func orderable(_ a: SQLValueKind, _ b: SQLValueKind) -> Bool {
        guard a == b else { return false }
        switch a {
        case .number, .string, .date, .uuid: return true
        default: return false
        }
    }
}

/// One compiled scalar value: its fragment, its kind, and whether it may be NULL.
struct SQLOperand {
    var fragment: SQLFragment
    var kind: SQLValueKind
    /// Whether the value may be NULL (a nullable column, a column behind a LEFT JOIN).
    var nullable: Bool
    /// The constant, when the operand is one (its fragment is then a parameter).
    var constant: PredicateValue?
    /// The attribute type, when the operand is an attribute column.
    var attributeType: AttributeType?

    var isConstant: Bool { constant != nil }

    /// The operand for a scalar constant, bound as Core Data stores it.
    init(constant value: AttributeValue) {
        fragment = .parameter(RowCodec.stored(value))
        kind = SQLValueKind(value)
        nullable = false
        constant = .attribute(value)
    }

    init(fragment: SQLFragment, kind: SQLValueKind, nullable: Bool, constant: PredicateValue? = nil, attributeType: AttributeType? = nil) {
        self.fragment = fragment
        self.kind = kind
        self.nullable = nullable
        self.constant = constant
        self.attributeType = attributeType
    }

    /// The nil constant.
    static let null = SQLOperand(fragment: .parameter(.null), kind: .null, nullable: true, constant: .null)
}

/// A compiled condition and whether it may evaluate to NULL (which `NOT` must treat as false).
struct SQLCondition {
    var fragment: SQLFragment
    var nullable: Bool

    static func truth(_ value: Bool) -> SQLCondition { SQLCondition(fragment: .truth(value), nullable: false) }

    /// The negation with Foundation's two-valued logic: `NOT x` when x is never NULL,
    /// `x IS NOT 1` otherwise (so a comparison with a nil value, false in memory, negates to true).
    var negated: SQLCondition {
        switch fragment {
        case .truth(let value): return .truth(!value)
        case .not(let inner): return SQLCondition(fragment: inner, nullable: false)
        default: return SQLCondition(fragment: nullable ? .isNotTrue(fragment) : .not(fragment), nullable: false)
        }
    }

    static func and(_ parts: [SQLCondition]) -> SQLCondition {
        let kept = parts.filter { if case .truth(true) = $0.fragment { return false } else { return true } }
        if kept.contains(where: { if case .truth(false) = $0.fragment { return true } else { return false } }) { return .truth(false) }
        if kept.isEmpty { return .truth(true) }
        if kept.count == 1 { return kept[0] }
        let flat = kept.flatMap { part -> [SQLFragment] in
            if case .and(let inner) = part.fragment { return inner }
            return [part.fragment]
        }
        return SQLCondition(fragment: .and(flat), nullable: kept.contains { $0.nullable })
    }

    static func or(_ parts: [SQLCondition]) -> SQLCondition {
        let kept = parts.filter { if case .truth(false) = $0.fragment { return false } else { return true } }
        if kept.contains(where: { if case .truth(true) = $0.fragment { return true } else { return false } }) { return .truth(true) }
        if kept.isEmpty { return .truth(false) }
        if kept.count == 1 { return kept[0] }
        let flat = kept.flatMap { part -> [SQLFragment] in
            if case .or(let inner) = part.fragment { return inner }
            return [part.fragment]
        }
        return SQLCondition(fragment: .or(flat), nullable: kept.contains { $0.nullable })
    }
}

/// Why part of a predicate is evaluated in memory instead of in SQL (not an error: the
/// fetch finishes that part after reading the rows).
struct SQLUnsupported: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
