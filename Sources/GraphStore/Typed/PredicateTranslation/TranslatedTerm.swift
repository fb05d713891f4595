/// A value-valued part of a `#Predicate`, as the predicate language writes it.
struct TranslatedTerm {
    /// What the part reads.
    enum Kind {
        /// An attribute value, a count, or a value computed from them.
        case value
        /// An object (the evaluated object, a to-one destination, a SUBQUERY variable), of
        /// this class when it is an ``EntityObject``.
        case object((any EntityObject.Type)?)
        /// A to-many relationship's members.
        case objects((any EntityObject.Type)?)
        /// A constant.
        case constant(PredicateValue)
    }

    var expression: ObjectExpression
    var kind: Kind
    /// Where the expression is nil in the predicate language but Swift reads something else:
    /// a non-optional property of an object that holds no value reads its empty value, and
    /// `x ?? d` reads `d`. Outside these cases, nil is nil on both sides. The conditions
    /// exclude one another.
    var nullCases: [NullCase] = []
    /// The part written as Swift, for messages.
    var text: String

    /// What Swift reads, under a condition, where the predicate language reads nil.
    struct NullCase {
        var condition: ObjectPredicate
        var swiftValue: PredicateValue
    }

    static func constant(_ value: PredicateValue, text: String) -> TranslatedTerm {
        TranslatedTerm(expression: .constant(value), kind: .constant(value), text: text)
    }

    var constantValue: PredicateValue? {
        if case .constant(let value) = kind { return value }
        return nil
    }
}

/// A Bool-valued part of a `#Predicate`.
struct TranslatedPredicate {
    var predicate: ObjectPredicate
    /// For an optional Bool (`$0.title?.contains("a")`): where Swift reads nil, not
    /// ``predicate``'s answer.
    var nilWhen: ObjectPredicate?
    var text: String
}

/// What translating one expression gives.
enum Translation {
    case term(TranslatedTerm)
    case predicate(TranslatedPredicate)

    var text: String {
        switch self {
        case .term(let term): term.text
        case .predicate(let predicate): predicate.text
        }
    }
}

/// One node of Foundation's predicate tree that GraphStore can translate (conformances in
/// `PredicateExpressions+Translation.swift`); any other node makes the translation fail,
/// naming it.
protocol TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws(PredicateTranslationError) -> Translation
}
