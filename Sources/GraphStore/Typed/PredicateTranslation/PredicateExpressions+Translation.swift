import Foundation

// The nodes of Foundation's predicate tree that have a counterpart in the predicate
// language, each turned into the same tree the format-string parser makes (so the SQL
// compiler, its cache and the in-memory evaluator see nothing new). See
// ``PredicateTranslator`` for how nil is kept faithful to Swift.

extension PredicateExpressions.Variable: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws(PredicateTranslationError) -> Translation {
        guard let term = translator.bindings[key] else {
            throw PredicateTranslationError(part: "a variable", reason: "it is not bound by the predicate")
        }
        return .term(term)
    }
}

extension PredicateExpressions.Value: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws(PredicateTranslationError) -> Translation {
        let text = "\(value)"
        if let property = value as? any AttributeProperty {
            return .term(.constant(PredicateValue(storedValue: property.storedValue), text: text))
        }
        if let collection = value as? any ConstantCollection {
            return .term(.constant(.array(collection.predicateValues), text: text))
        }
        if let object = value as? ManagedObject { return .term(.constant(object.predicateValue, text: text)) }
        throw PredicateTranslationError(part: text, reason: "a constant of type \(Output.self) has no counterpart in a fetch")
    }
}

extension PredicateExpressions.NilLiteral: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws(PredicateTranslationError) -> Translation {
        .term(.constant(.null, text: "nil"))
    }
}

extension PredicateExpressions.KeyPath: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws(PredicateTranslationError) -> Translation {
        let base = try translator.term(of: root)
        switch base.kind {
        case .object(let type):
            guard let type, let name = type.propertyName(for: keyPath) else {
                throw PredicateTranslationError(part: "\(base.text).\(Self.component(keyPath))", reason: "the key path names no property of the model (see EntityObject.propertyName(for:))")
            }
            return .term(Self.property(name, of: base))
        case .objects:
            let collection = Root.Output.self as? any ToManyValue.Type
            let count = PredicateParser.appending("@count", to: base.expression)
            if keyPath == collection?.countKeyPath {
                return .term(TranslatedTerm(expression: count, kind: .value, text: "\(base.text).count"))
            }
            if keyPath == collection?.isEmptyKeyPath {
                let predicate = ComparisonPredicate(count, .equalTo, .constant(.attribute(.integer(0))))
                return .predicate(TranslatedPredicate(predicate: .comparison(predicate), nilWhen: nil, text: "\(base.text).isEmpty"))
            }
            throw PredicateTranslationError(part: "\(base.text).\(Self.component(keyPath))", reason: "only count and isEmpty of a to-many relationship have a counterpart in a fetch")
        case .value, .constant:
            throw PredicateTranslationError(part: "\(base.text).\(Self.component(keyPath))", reason: "a property of a value (a string's count, a date's parts) has no counterpart in a fetch")
        }
    }

    /// The last component of a key path as Swift writes it (`\Book.title` → `title`).
    static func component(_ keyPath: AnyKeyPath) -> String {
        let text = "\(keyPath)"
        return String(text.split(separator: ".").last ?? Substring(text))
    }

    /// A model property of an object: a to-one is an object, a to-many the members, an
    /// attribute a value; a non-optional attribute reads its empty value where the object
    /// holds none, which the predicate language reads as nil.
    private static func property(_ name: String, of base: TranslatedTerm) -> TranslatedTerm {
        let expression = PredicateParser.appending(name, to: base.expression)
        let text = "\(base.text).\(name)"
        if let toOne = Output.self as? any ToOneValue.Type {
            return TranslatedTerm(expression: expression, kind: .object(entityClass(toOne.destinationClass)), text: text)
        }
        if let toMany = Output.self as? any ToManyValue.Type {
            return TranslatedTerm(expression: expression, kind: .objects(entityClass(toMany.memberClass)), text: text)
        }
        var term = TranslatedTerm(expression: expression, kind: .value, text: text)
        if !(Output.self is any OptionalValue.Type), let attribute = Output.self as? any AttributeProperty.Type {
            let empty = PredicateValue(storedValue: attribute.emptyPropertyValue.storedValue)
            term.nullCases = [TranslatedTerm.NullCase(condition: PredicateTranslator.isNil(expression), swiftValue: empty)]
        }
        return term
    }
}

extension PredicateExpressions.Equal: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws(PredicateTranslationError) -> Translation {
        try translator.comparison(lhs, .equalTo, rhs, symbol: "==")
    }
}

extension PredicateExpressions.NotEqual: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws(PredicateTranslationError) -> Translation {
        try translator.comparison(lhs, .notEqualTo, rhs, symbol: "!=")
    }
}

extension PredicateExpressions.Comparison: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws(PredicateTranslationError) -> Translation {
        switch op {
        case .lessThan: try translator.comparison(lhs, .lessThan, rhs, symbol: "<")
        case .lessThanOrEqual: try translator.comparison(lhs, .lessThanOrEqualTo, rhs, symbol: "<=")
        case .greaterThan: try translator.comparison(lhs, .greaterThan, rhs, symbol: ">")
        case .greaterThanOrEqual: try translator.comparison(lhs, .greaterThanOrEqualTo, rhs, symbol: ">=")
        }
    }
}

extension PredicateExpressions.SequenceStartsWith: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws(PredicateTranslationError) -> Translation {
        try translator.stringTest(base, .beginsWith, prefix, name: "starts(with:)")
    }
}

extension PredicateExpressions.CollectionContainsCollection: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws(PredicateTranslationError) -> Translation {
        try translator.stringTest(base, .contains, other, name: "contains")
    }
}

extension PredicateExpressions.Conjunction: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws(PredicateTranslationError) -> Translation {
        let left = try translator.predicate(of: lhs)
        let right = try translator.predicate(of: rhs)
        return .predicate(TranslatedPredicate(predicate: PredicateTranslator.and([left, right]), nilWhen: nil, text: "&&"))
    }
}

extension PredicateExpressions.Disjunction: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws(PredicateTranslationError) -> Translation {
        let left = try translator.predicate(of: lhs)
        let right = try translator.predicate(of: rhs)
        return .predicate(TranslatedPredicate(predicate: PredicateTranslator.or([left, right]), nilWhen: nil, text: "||"))
    }
}

extension PredicateExpressions.Negation: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws(PredicateTranslationError) -> Translation {
        let inner = try translator.predicate(of: wrapped)
        return .predicate(TranslatedPredicate(predicate: PredicateTranslator.negate(inner), nilWhen: nil, text: "!"))
    }
}

extension PredicateExpressions.NilCoalesce: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws(PredicateTranslationError) -> Translation {
        let fallback = try translator.term(of: rhs)
        guard let value = fallback.constantValue else {
            throw PredicateTranslationError(part: "?? \(fallback.text)", reason: "only a constant default has a counterpart in a fetch")
        }
        switch try translator.translate(lhs) {
        case .predicate(let optional):
            // An optional Bool: the default where Swift reads nil, the test elsewhere.
            guard let nilWhen = optional.nilWhen, case .attribute(.bool(let answer)) = value else { return .predicate(optional) }
            let predicate = PredicateTranslator.or([
                PredicateTranslator.and([nilWhen, .constant(answer)]),
                PredicateTranslator.and([PredicateTranslator.negate(nilWhen), optional.predicate]),
            ])
            return .predicate(TranslatedPredicate(predicate: predicate, nilWhen: nil, text: "\(optional.text) ?? \(fallback.text)"))
        case .term(var term):
            let condition = PredicateTranslator.and([PredicateTranslator.isNil(term.expression)] + term.nullCases.map { PredicateTranslator.negate($0.condition) })
            term.nullCases.append(TranslatedTerm.NullCase(condition: condition, swiftValue: value))
            term.text += " ?? \(fallback.text)"
            return .term(term)
        }
    }
}

extension PredicateExpressions.OptionalFlatMap: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws(PredicateTranslationError) -> Translation {
        var unwrapped = try translator.term(of: wrapped)
        let isNil = PredicateTranslator.isNil(unwrapped.expression)
        // Inside the closure the value is not nil.
        unwrapped.nullCases = []
        unwrapped.text += "?"
        translator.bindings[variable.key] = unwrapped
        switch try translator.translate(transform) {
        case .term(var term):
            // Swift reads nil wherever the wrapped value is nil, as the predicate language
            // does; the transform's own cases hold only where it is not.
            term.nullCases = term.nullCases.map {
                TranslatedTerm.NullCase(condition: PredicateTranslator.and([PredicateTranslator.negate(isNil), $0.condition]), swiftValue: $0.swiftValue)
            }
            return .term(term)
        case .predicate(var predicate):
            predicate.nilWhen = PredicateTranslator.or([isNil] + (predicate.nilWhen.map { [$0] } ?? []))
            return .predicate(predicate)
        }
    }
}

extension PredicateExpressions.SequenceContainsWhere: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws(PredicateTranslationError) -> Translation {
        let members = try translator.term(of: sequence)
        guard case .objects(let type) = members.kind else {
            throw PredicateTranslationError(part: "\(members.text).contains(where:)", reason: "only a to-many relationship can be searched in a fetch")
        }
        let name = translator.newVariableName()
        translator.bindings[variable.key] = TranslatedTerm(expression: .variable(name), kind: .object(type), text: "$\(name)")
        let test = try translator.predicate(of: self.test)
        let subquery = ObjectExpression.subquery(collection: members.expression, variable: name, predicate: test)
        let count = PredicateParser.appending("@count", to: subquery)
        let predicate = ObjectPredicate.comparison(ComparisonPredicate(count, .greaterThan, .constant(.attribute(.integer(0)))))
        return .predicate(TranslatedPredicate(predicate: predicate, nilWhen: nil, text: "\(members.text).contains(where:)"))
    }
}

extension PredicateExpressions.SequenceContains: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws(PredicateTranslationError) -> Translation {
        let collection = try translator.term(of: sequence)
        let member = try translator.term(of: element)
        guard collection.constantValue != nil else {
            throw PredicateTranslationError(part: "\(collection.text).contains(\(member.text))", reason: "only a constant collection can be tested for a value in a fetch")
        }
        let predicate = translator.compare(member, .in, collection)
        return .predicate(TranslatedPredicate(predicate: predicate, nilWhen: nil, text: "\(collection.text).contains(\(member.text))"))
    }
}

/// Marks `Optional` so that a key path's value type can be asked whether it is one.
protocol OptionalValue {}
extension Optional: OptionalValue {}

extension PredicateTranslator {
    /// `lhs op rhs` for two value-valued parts.
    mutating func comparison(_ lhs: Any, _ op: ComparisonOperator, _ rhs: Any, symbol: String) throws(PredicateTranslationError) -> Translation {
        let (leftSide, rightSide) = (try translate(lhs), try translate(rhs))
        switch (leftSide, rightSide) {
        case (.predicate(let test), .term(let constant)), (.term(let constant), .predicate(let test)):
            return try comparison(of: test, op, constant, symbol: symbol)
        case (.predicate(let a), .predicate(let b)):
            throw PredicateTranslationError(part: "\(a.text) \(symbol) \(b.text)", reason: "two conditions compared have no counterpart in a fetch")
        case (.term, .term): break
        }
        let left = try term(of: lhs)
        let right = try term(of: rhs)
        if case .objects = left.kind {
            throw PredicateTranslationError(part: "\(left.text) \(symbol) \(right.text)", reason: "a to-many relationship compared as a whole has no counterpart in a fetch")
        }
        return .predicate(TranslatedPredicate(predicate: compare(left, op, right), nilWhen: nil, text: "\(left.text) \(symbol) \(right.text)"))
    }

    /// A condition (an optional one: `$0.name?.starts(with: "A")`) compared with `true`,
    /// `false` or `nil`, as Swift compares an optional Bool.
    func comparison(of test: TranslatedPredicate, _ op: ComparisonOperator, _ constant: TranslatedTerm, symbol: String) throws(PredicateTranslationError) -> Translation {
        let text = "\(test.text) \(symbol) \(constant.text)"
        guard op == .equalTo || op == .notEqualTo, let value = constant.constantValue else {
            throw PredicateTranslationError(part: text, reason: "a condition can only be compared with true, false or nil")
        }
        let isNil = test.nilWhen ?? .constant(false)
        let equal: ObjectPredicate
        switch value {
        case .null: equal = isNil
        case .attribute(.bool(let answer)):
            equal = Self.and([Self.negate(isNil), answer ? test.predicate : Self.negate(test.predicate)])
        default: throw PredicateTranslationError(part: text, reason: "a condition can only be compared with true, false or nil")
        }
        return .predicate(TranslatedPredicate(predicate: op == .equalTo ? equal : Self.negate(equal), nilWhen: nil, text: text))
    }

    /// A string test (`contains`, `starts(with:)`) of a value against a constant.
    mutating func stringTest(_ base: Any, _ op: ComparisonOperator, _ argument: Any, name: String) throws(PredicateTranslationError) -> Translation {
        let text = try term(of: base)
        let pattern = try term(of: argument)
        let written = "\(text.text).\(name)(\(pattern.text))"
        guard case .value = text.kind, let constant = pattern.constantValue, case .attribute(.string(let string)) = constant else {
            throw PredicateTranslationError(part: written, reason: "only a string property tested against a constant string has a counterpart in a fetch")
        }
        // Swift finds the empty string in every string; the predicate language in none.
        if string.isEmpty { return .predicate(TranslatedPredicate(predicate: .constant(true), nilWhen: nil, text: written)) }
        return .predicate(TranslatedPredicate(predicate: compare(text, op, pattern), nilWhen: nil, text: written))
    }
}

extension PredicateExpressions.UnaryMinus: TranslatableExpression {
    /// A negative constant (`-1` is `UnaryMinus(1)` in the tree); a computed value is not fetched.
    func translate(_ translator: inout PredicateTranslator) throws(PredicateTranslationError) -> Translation {
        let operand = try translator.term(of: wrapped)
        switch operand.constantValue {
        case .attribute(.integer(let value))?: return .term(.constant(.attribute(.integer(-value)), text: "-\(operand.text)"))
        case .attribute(.double(let value))?: return .term(.constant(.attribute(.double(-value)), text: "-\(operand.text)"))
        case .attribute(.decimal(let value))?: return .term(.constant(.attribute(.decimal(-value)), text: "-\(operand.text)"))
        default: throw PredicateTranslationError(part: "-\(operand.text)", reason: "only a constant can be negated in a fetch")
        }
    }
}
