import Foundation

extension ObjectPredicate {
    /// The predicate with each string compared to a Date attribute read as an ISO 8601
    /// date (``ISO8601DateText``): `born > "2010-01-01"`, `born BETWEEN {"2010-01-01",
    /// "2011-01-01T12:00Z"}`, `born IN {"2010-01-01"}`, through relationships too
    /// (`ANY entries.date >= "2020-03-01"`). A string without a zone is a time in
    /// `timeZone`. Strings compared to anything else are left alone, so are those inside a
    /// SUBQUERY.
    ///
    /// Throws ``DateTextError`` naming a string that is not such a date.
    ///
    /// ```swift
    /// let recent = try ObjectPredicate(format: "date >= '2024-01-01'")
    ///     .readingDateStrings(entity: "JournalEntry", in: model)   // date >= CAST(725846400.000000, "NSDate")
    /// ```
    public func readingDateStrings(entity: String, in model: ManagedObjectModel, timeZone: TimeZone = .gmt) throws(DateTextError) -> ObjectPredicate {
        try readingDateStrings(timeZone: timeZone) { model.isDate($0, from: entity) }
    }

    /// The same, for any key–value source: `isDate` says which key paths hold dates (the
    /// entries of a dictionary fetch's results, for its having predicate).
    ///
    /// ```swift
    /// let having = try ObjectPredicate(format: "latest > '2014-08-01'").readingDateStrings { $0 == ["latest"] }
    /// ```
    public func readingDateStrings(timeZone: TimeZone = .gmt, isDate: @escaping ([String]) -> Bool) throws(DateTextError) -> ObjectPredicate {
        try DateLiteralReader(isDate: isDate, timeZone: timeZone).rewrite(self)
    }
}

extension ManagedObjectModel {
    /// Whether a key path from an entity, through relationships, ends at a Date attribute.
    public func isDate(_ path: [String], from entity: String) -> Bool {
        var current = entity
        for (index, key) in path.enumerated() {
            if index == path.count - 1 { return attribute(key, of: current)?.type == .date }
            guard let relationship = relationship(key, of: current) else { return false }
            current = relationship.destination
        }
        return false
    }
}

/// Rewrites the string constants a predicate compares with Date attributes.
private struct DateLiteralReader {
    let isDate: ([String]) -> Bool
    let timeZone: TimeZone

    private static let operators: Set<ComparisonOperator> = [
        .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .equalTo, .notEqualTo, .in, .between,
    ]

    func rewrite(_ predicate: ObjectPredicate) throws(DateTextError) -> ObjectPredicate {
        switch predicate {
        case .constant: return predicate
        case .and(let parts):
            var rewritten: [ObjectPredicate] = []
            for part in parts { rewritten.append(try rewrite(part)) }
            return .and(rewritten)
        case .or(let parts):
            var rewritten: [ObjectPredicate] = []
            for part in parts { rewritten.append(try rewrite(part)) }
            return .or(rewritten)
        case .not(let inner):
            return .not(try rewrite(inner))
        case .comparison(var comparison):
            guard Self.operators.contains(comparison.comparisonOperator) else { return predicate }
            if holdsDates(comparison.left) {
                comparison.right = try dates(in: comparison.right)
            } else if holdsDates(comparison.right), comparison.comparisonOperator != .in, comparison.comparisonOperator != .between {
                comparison.left = try dates(in: comparison.left)
            }
            return .comparison(comparison)
        }
    }

    /// Whether an expression is a key path to dates.
    private func holdsDates(_ expression: ObjectExpression) -> Bool {
        switch expression {
        case .keyPath(let path), .member(.evaluatedObject, let path): isDate(path)
        default: false
        }
    }

    /// String constants (alone, in `{…}`, or in a constant collection) read as dates.
    private func dates(in expression: ObjectExpression) throws(DateTextError) -> ObjectExpression {
        switch expression {
        case .constant(let value): return .constant(try dates(in: value))
        case .aggregate(let elements):
            var rewritten: [ObjectExpression] = []
            for element in elements { rewritten.append(try dates(in: element)) }
            return .aggregate(rewritten)
        default: return expression
        }
    }

    private func dates(in value: PredicateValue) throws(DateTextError) -> PredicateValue {
        switch value {
        case .attribute(.string(let text)): return .date(try ISO8601DateText.date(from: text, in: timeZone))
        case .array(let elements):
            var rewritten: [PredicateValue] = []
            for element in elements { rewritten.append(try dates(in: element)) }
            return .array(rewritten)
        case .set(let elements):
            var rewritten: [PredicateValue] = []
            for element in elements { rewritten.append(try dates(in: element)) }
            return .set(rewritten)
        default: return value
        }
    }
}
