import GraphStore

/// The `select`, `group by` and `having` clauses of `fetch`: a dictionary fetch
/// (``FetchRequest/resultType`` `.dictionary`).
///
/// `select [distinct] ITEM, …` names key paths (through to-one relationships) and
/// aggregates: `count()`, `count(KEY)`, `sum(KEY)`, `avg(KEY)` (or `average`), `min(KEY)`,
/// `max(KEY)`. An aggregate is shown under the name it was typed with (`avg(price)`), and a
/// `having` predicate or a sort key may name it the same way (`having count() > 1`, `sort
/// count() desc`); an aggregate only named there is computed but not shown.
///
/// ```
/// fetch Book select category.name, count(), avg(price) group by category.name having count() > 1
/// ```
struct SelectClause {
    /// The column names shown, in order.
    var columns: [String]
    /// The result key of each shown column.
    var keys: [String]
    /// Aggregates by their shown name.
    private var aggregates: [String: ExpressionDescription] = [:]
    var distinct = false

    /// Reads `[distinct] ITEM, …`.
    init(_ text: Substring) throws {
        var items = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let first = items.split(maxSplits: 1, whereSeparator: \.isWhitespace).first, first.lowercased() == "distinct" {
            distinct = true
            items = String(items.dropFirst(first.count)).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        columns = []
        keys = []
        for item in SelectClause.items(items) {
            guard !item.isEmpty else { throw ShellError("select: expected a key path or an aggregate between commas") }
            if let aggregate = try aggregate(item) {
                columns.append(aggregate.shown)
                keys.append(aggregate.expression.name)
            } else {
                columns.append(SelectClause.keyPath(item))
                keys.append(SelectClause.keyPath(item))
            }
        }
    }

    /// The aggregate a one-component key path of the results names.
    func aggregate(named path: [String]) -> ExpressionDescription? {
        guard path.count == 1 else { return nil }
        return aggregates.values.first { $0.name == path[0] }
    }

    /// The name an aggregate was typed with (`avg(price)`), from its key in the results.
    func shownName(of key: String) -> String {
        aggregates.first { $0.value.name == key }?.key ?? key
    }

    /// The request's properties: the shown ones, then aggregates only named elsewhere.
    func properties() -> [FetchProperty] {
        var properties: [FetchProperty] = []
        for key in keys {
            if let aggregate = aggregates.values.first(where: { $0.name == key }) {
                properties.append(.expression(aggregate))
            } else {
                properties.append(.keyPath(key))
            }
        }
        for aggregate in aggregates.values.sorted(by: { $0.name < $1.name }) where !keys.contains(aggregate.name) {
            properties.append(.expression(aggregate))
        }
        return properties
    }

    /// The aggregate an item is (`avg( price )`), registered under its shown name; nil for a
    /// key path.
    mutating func aggregate(_ item: String) throws -> (shown: String, expression: ExpressionDescription)? {
        guard let match = item.wholeMatch(of: SelectClause.call) else { return nil }
        let word = match.output.1.lowercased()
        let keyPath = match.output.2.map(String.init)
        let shown = "\(word)(\(keyPath ?? ""))"
        if let known = aggregates[shown] { return (shown, known) }
        guard let function = SelectClause.functions[word] else { return nil }
        if keyPath == nil, function != .count { throw ShellError("select: \(shown) needs a key path, as in \(word)(price)") }
        // A plain identifier, so that a having predicate can name it.
        let expression = ExpressionDescription(name: "gs_aggregate_\(aggregates.count + 1)", function: function, keyPath: keyPath)
        aggregates[shown] = expression
        return (shown, expression)
    }

    /// `text` with each aggregate call outside quotes (`count()`) replaced by the key its
    /// value has in each result, so that the predicate parser reads it as a key path.
    mutating func replacingAggregates(in text: Substring) throws -> String {
        var result = ""
        var rest = text[...]
        while let match = rest.firstMatch(of: SelectClause.call) {
            let before = text[text.startIndex..<match.range.lowerBound]
            var quotes = QuoteState()
            for scalar in before.unicodeScalars { quotes.advance(scalar) }
            let previous = before.last
            result += rest[rest.startIndex..<match.range.lowerBound]
            if quotes.isInsideQuotes || previous.map({ $0.isLetter || $0.isNumber || "_.@$#".contains($0) }) == true {
                result += rest[match.range]
            } else if let aggregate = try aggregate(String(rest[match.range])) {
                result += aggregate.expression.name
            } else {
                result += rest[match.range]
            }
            rest = rest[match.range.upperBound...]
        }
        return result + rest
    }

    /// A key path as typed, a component named like a clause word escaped with `#`
    /// (`#group.name`), as the predicate language writes it.
    static func keyPath(_ text: String) -> String {
        text.split(separator: ".", omittingEmptySubsequences: false).map { $0.hasPrefix("#") ? String($0.dropFirst()) : String($0) }
            .joined(separator: ".")
    }

    /// Items split at commas outside brackets and quotes.
    private static func items(_ text: String) -> [String] {
        var items: [String] = []
        var current = ""
        var depth = 0
        var quotes = QuoteState()
        for scalar in text.unicodeScalars {
            if quotes.advance(scalar) {
                if scalar == "(" { depth += 1 } else if scalar == ")" { depth -= 1 }
                if scalar == ",", depth == 0 {
                    items.append(current.trimmingCharacters(in: .whitespacesAndNewlines))
                    current = ""
                    continue
                }
            }
            current.unicodeScalars.append(scalar)
        }
        items.append(current.trimmingCharacters(in: .whitespacesAndNewlines))
        return items
    }

    /// `count()`, `avg( price )`, `MAX(category.name)`.
    private static var call: Regex<(Substring, Substring, Substring?)> {
        #/(?i)(count|sum|avg|average|min|max)\s*\(\s*([A-Za-z_][A-Za-z0-9_.]*)?\s*\)/#
    }

    private static let functions: [String: ExpressionDescription.Function] = [
        "count": .count, "sum": .sum, "avg": .average, "average": .average, "min": .min, "max": .max,
    ]
}
