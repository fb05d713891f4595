/// What a fetch's SQL is compiled from: the entity, the predicate, the order, and what each
/// row holds. A context makes one from a ``FetchRequest``; the window (limit and offset) is
/// not part of it, since it is bound, not compiled.
///
/// ```swift
/// let definition = QueryDefinition(entityName: "Book", predicate: cheap, sortKeys: [SortKey("title")], selection: .rows)
/// let query = try store.fetchQuery(for: definition)   // compiled once, then kept by the store
/// ```
struct QueryDefinition {
    var entityName: String
    var predicate: ObjectPredicate?
    var sortKeys: [SortKey] = []
    /// Whether rows of sub-entities qualify.
    var includesSubentities = true
    /// For `.properties`: the key paths and aggregates selected.
    var propertiesToFetch: [FetchProperty] = []
    /// For `.properties`: the key paths of `GROUP BY`.
    var propertiesToGroupBy: [String] = []
    /// For `.properties`: `SELECT DISTINCT`.
    var returnsDistinctResults = false
    var selection: FetchQuery.Selection

    /// The key of the store's compiled-query cache: everything compiling depends on for this
    /// selection (the properties only matter to dictionaries). nil when the predicate compiles differently from one run to the next:
    /// constants folded at compile time (`now()`, `random()`, functions and selectors in
    /// general), variables, and managed objects as constants (whose keys change when they are
    /// saved).
    var fingerprint: QueryFingerprint? {
        var tokens: [QueryFingerprint.Token] = []
        if let predicate, !QueryFingerprint.append(predicate, to: &tokens) { return nil }
        return QueryFingerprint(
            entityName: entityName, predicate: tokens, sortKeys: sortKeys,
            includesSubentities: includesSubentities,
            propertiesToFetch: selection == .properties ? propertiesToFetch : [],
            propertiesToGroupBy: selection == .properties ? propertiesToGroupBy : [],
            returnsDistinctResults: selection == .properties && returnsDistinctResults, selection: selection)
    }
}

/// A ``QueryDefinition`` as a hashable key: the predicate written out as a sequence of
/// tokens, each node tagged with its kind and its number of children, so that two
/// predicates have the same tokens only when they are the same tree with the same
/// constants.
struct QueryFingerprint: Hashable {
    enum Token: Hashable {
        case node(Node)
        case count(Int)
        case flag(Bool)
        case text(String)
        case value(AttributeValue)
        case comparison(ComparisonOperator, ComparisonModifier, ComparisonOptions)
        case arithmetic(ArithmeticOperator)
        case unary(UnaryOperator)
    }

    /// The kinds of the predicate tree's nodes.
    enum Node: Hashable {
        case constantPredicate, comparison, and, or, not
        case constant, evaluatedObject, keyPath, member, index, first, last, size, aggregate, arithmetic, unary, cast
        case subquery, anyKey
        case null, array, set
    }

    let entityName: String
    let predicate: [Token]
    let sortKeys: [SortKey]
    let includesSubentities: Bool
    let propertiesToFetch: [FetchProperty]
    let propertiesToGroupBy: [String]
    let returnsDistinctResults: Bool
    let selection: FetchQuery.Selection

    /// Appends a predicate's tokens; false when it cannot be cached (see
    /// ``QueryDefinition/fingerprint``).
    static func append(_ predicate: ObjectPredicate, to tokens: inout [Token]) -> Bool {
        switch predicate {
        case .constant(let value):
            tokens += [.node(.constantPredicate), .flag(value)]
            return true
        case .comparison(let c):
            tokens += [.node(.comparison), .comparison(c.comparisonOperator, c.modifier, c.options)]
            return append(c.left, to: &tokens) && append(c.right, to: &tokens)
        case .and(let parts), .or(let parts):
            tokens += [.node(predicate.isAnd ? .and : .or), .count(parts.count)]
            return parts.allSatisfy { append($0, to: &tokens) }
        case .not(let inner):
            tokens.append(.node(.not))
            return append(inner, to: &tokens)
        }
    }

    private static func append(_ expression: ObjectExpression, to tokens: inout [Token]) -> Bool {
        switch expression {
        case .constant(let value):
            tokens.append(.node(.constant))
            return append(value, to: &tokens)
        case .evaluatedObject:
            tokens.append(.node(.evaluatedObject))
        case .anyKey:
            tokens.append(.node(.anyKey))
        case .keyPath(let path):
            tokens += [.node(.keyPath), .count(path.count)] + path.map(Token.text)
        case .member(let base, let path):
            tokens += [.node(.member), .count(path.count)] + path.map(Token.text)
            return append(base, to: &tokens)
        case .index(let base, let selector):
            tokens.append(.node(.index))
            guard append(base, to: &tokens) else { return false }
            switch selector {
            case .first: tokens.append(.node(.first))
            case .last: tokens.append(.node(.last))
            case .size: tokens.append(.node(.size))
            case .expression(let key): return append(key, to: &tokens)
            }
        case .aggregate(let elements):
            tokens += [.node(.aggregate), .count(elements.count)]
            return elements.allSatisfy { append($0, to: &tokens) }
        case .arithmetic(let op, let left, let right):
            tokens += [.node(.arithmetic), .arithmetic(op)]
            return append(left, to: &tokens) && append(right, to: &tokens)
        case .unary(let op, let operand):
            tokens += [.node(.unary), .unary(op)]
            return append(operand, to: &tokens)
        case .cast(let base, let type):
            tokens += [.node(.cast), .text(type)]
            return append(base, to: &tokens)
        case .subquery(let collection, let variable, let predicate):
            tokens += [.node(.subquery), .text(variable)]
            return append(collection, to: &tokens) && append(predicate, to: &tokens)
        case .variable, .function, .selector:
            return false
        }
        return true
    }

    private static func append(_ value: PredicateValue, to tokens: inout [Token]) -> Bool {
        switch value {
        case .null: tokens.append(.node(.null))
        case .attribute(let scalar): tokens.append(.value(scalar))
        case .array(let elements), .set(let elements):
            tokens += [.node(value.isArray ? .array : .set), .count(elements.count)]
            return elements.allSatisfy { append($0, to: &tokens) }
        case .object:
            return false
        }
        return true
    }
}

extension ObjectPredicate {
    fileprivate var isAnd: Bool {
        if case .and = self { return true }
        return false
    }
}

extension PredicateValue {
    fileprivate var isArray: Bool {
        if case .array = self { return true }
        return false
    }
}
