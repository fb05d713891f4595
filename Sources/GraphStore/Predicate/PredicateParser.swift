import Foundation

/// Recursive-descent parser for predicates (this file) and expressions
/// (`PredicateParser+Expressions.swift`).
///
/// Precedence, loosest first: OR, AND, NOT, comparison, `|`, `^`, `&`, `<< >>`, `+ -`,
/// `* /`, `**`, unary `- ~`, postfix `.key` and `[index]`. AND binds tighter than OR
/// (the vectors follow PrediKit's Apple-run evidence); chains of one connective are flat.
struct PredicateParser {
    let tokens: [PredicateToken]
    var index = 0
    let arguments: [PredicateValue]
    var argumentIndex = 0
    /// Nesting of the tree being built; bounded so no input can exhaust the stack.
    var depth = 0
    /// Indices of `(` tokens whose contents (at their own level) hold a comparison or a
    /// connective, so they group a predicate rather than an expression like `(age + 1)`.
    let predicateGroups: Set<Int>

    static let maximumDepth = 100

    init(format: String, arguments: [PredicateValue]) throws(PredicateParseError) {
        tokens = try PredicateLexer.tokenize(format)
        self.arguments = arguments
        predicateGroups = PredicateParser.findPredicateGroups(tokens)
    }

    // MARK: Entry points

    mutating func parseWholePredicate() throws(PredicateParseError) -> ObjectPredicate {
        if current.kind == .end { throw fail("expected a predicate") }
        let predicate = try parseOr()
        if current.kind != .end {
            throw fail("expected AND, OR or the end of the predicate, found '\(current.shownText)'")
        }
        return predicate
    }

    mutating func parseWholeExpression() throws(PredicateParseError) -> ObjectExpression {
        if current.kind == .end { throw fail("expected an expression") }
        let expression = try parseExpression()
        if current.kind != .end { throw fail("expected the end of the expression, found '\(current.shownText)'") }
        return expression
    }

    // MARK: Token helpers

    var current: PredicateToken { tokens[min(index, tokens.count - 1)] }

    func peekKind(_ offset: Int = 1) -> PredicateToken.Kind {
        tokens[min(index + offset, tokens.count - 1)].kind
    }

    /// The previous token as messages show it.
    var previousText: String? { index > 0 ? tokens[index - 1].shownText : nil }

    mutating func advance() { if index < tokens.count - 1 { index += 1 } }

    func fail(_ message: String, at token: PredicateToken? = nil) -> PredicateParseError {
        PredicateParseError(column: (token ?? current).column, message: message)
    }

    func isPunctuation(_ p: PredicateToken.Punctuation) -> Bool { current.kind == .punctuation(p) }

    func isKeyword(_ k: PredicateKeyword) -> Bool { current.kind == .keyword(k) }

    /// Consumes `p` or fails with "expected 'p' …".
    mutating func expect(_ p: PredicateToken.Punctuation, _ context: String) throws(PredicateParseError) {
        guard isPunctuation(p) else {
            let found = current.kind == .end ? "" : ", found '\(current.shownText)'"
            throw fail("expected '\(p.rawValue)' \(context)\(found)")
        }
        advance()
    }

    /// Counts one level of nesting; fails past `maximumDepth`.
    mutating func enter() throws(PredicateParseError) {
        depth += 1
        if depth > PredicateParser.maximumDepth { throw fail("the predicate is nested too deeply") }
    }

    /// "expected a value after '=='", naming what was found when it is not the end.
    func expectedValue() -> PredicateParseError {
        var message = "expected a value"
        if let previousText { message += " after '\(previousText)'" }
        if current.kind != .end {
            if case .keyword = current.kind, PredicateParser.keyUsableAfterEscape(current.text) {
                message += ", found reserved word '\(current.shownText)' (write #\(current.shownText) to use it as a key)"
            } else {
                message += ", found '\(current.shownText)'"
            }
        }
        return fail(message)
    }

    /// Reserved words a user may have meant as a key (`like`, `size`), not connectives.
    static func keyUsableAfterEscape(_ text: String) -> Bool {
        let connectives: Set<String> = ["AND", "OR", "NOT", "ANY", "ALL", "SOME", "NONE"]
        return !connectives.contains(text.uppercased())
            && text.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0 == "_" }
    }

    // MARK: Predicates

    mutating func parseOr() throws(PredicateParseError) -> ObjectPredicate {
        var operands = [try parseAnd()]
        while isKeyword(.or) || isPunctuation(.or) {
            advance()
            operands.append(try parseAnd())
        }
        return operands.count == 1 ? operands[0] : .or(operands)
    }

    mutating func parseAnd() throws(PredicateParseError) -> ObjectPredicate {
        var operands = [try parseNot()]
        while isKeyword(.and) || isPunctuation(.and) {
            advance()
            operands.append(try parseNot())
        }
        return operands.count == 1 ? operands[0] : .and(operands)
    }

    mutating func parseNot() throws(PredicateParseError) -> ObjectPredicate {
        try enter()
        defer { depth -= 1 }
        if isKeyword(.not) || isPunctuation(.not) {
            advance()
            if current.kind == .end { throw fail("expected a predicate after '\(previousText ?? "NOT")'") }
            return .not(try parseNot())
        }
        return try parsePrimary()
    }

    mutating func parsePrimary() throws(PredicateParseError) -> ObjectPredicate {
        if isPunctuation(.openParen), predicateGroups.contains(index) {
            let open = current
            advance()
            let inner = try parseOr()
            try expect(.closeParen, "to close the '(' at col \(open.column)")
            return inner
        }
        if isKeyword(.truePredicate) {
            advance()
            return .constant(true)
        }
        if isKeyword(.falsePredicate) {
            advance()
            return .constant(false)
        }
        return try parseComparison()
    }

    mutating func parseComparison() throws(PredicateParseError) -> ObjectPredicate {
        var modifier = ComparisonModifier.direct
        var isNone = false
        switch current.kind {
        case .keyword(.any), .keyword(.some): modifier = .any
        case .keyword(.all): modifier = .all
        case .keyword(.none):
            modifier = .any
            isNone = true
        default: break
        }
        if modifier != .direct { advance() }
        if current.kind == .end, index == 0 { throw fail("expected a predicate") }
        let left = try parseExpression()
        let operatorToken = current
        guard let comparisonOperator = PredicateParser.comparisonOperator(current.kind) else {
            if current.kind == .end {
                throw fail("expected a comparison operator after '\(previousText ?? "")'")
            }
            throw fail("expected a comparison operator, found '\(current.shownText)'")
        }
        advance()
        var options: ComparisonOptions = []
        if isPunctuation(.openBracket) {
            advance()
            guard case .identifier(let letters) = current.kind, let parsed = ComparisonOptions(letters: letters),
                !current.text.hasPrefix("#")
            else {
                throw fail("expected comparison options (c, d, n or l) after '\(operatorToken.text)['")
            }
            options = parsed
            advance()
            try expect(.closeBracket, "after the comparison options")
        }
        let right = try parseExpression()
        let comparison = ObjectPredicate.comparison(
            ComparisonPredicate(left, comparisonOperator, right, modifier: modifier, options: options))
        return isNone ? .not(comparison) : comparison
    }

    static func comparisonOperator(_ kind: PredicateToken.Kind) -> ComparisonOperator? {
        switch kind {
        case .punctuation(.equal): .equalTo
        case .punctuation(.notEqual): .notEqualTo
        case .punctuation(.less): .lessThan
        case .punctuation(.lessOrEqual): .lessThanOrEqualTo
        case .punctuation(.greater): .greaterThan
        case .punctuation(.greaterOrEqual): .greaterThanOrEqualTo
        case .keyword(.like): .like
        case .keyword(.matches): .matches
        case .keyword(.contains): .contains
        case .keyword(.beginsWith): .beginsWith
        case .keyword(.endsWith): .endsWith
        case .keyword(.in): .in
        case .keyword(.between): .between
        case .keyword(.utiConformsTo): .utiConformsTo
        case .keyword(.utiEquals): .utiEquals
        default: nil
        }
    }

    /// Marks each `(` whose own level holds a comparison operator or a connective: such a
    /// group is a parenthesized predicate; any other `(` groups an expression.
    static func findPredicateGroups(_ tokens: [PredicateToken]) -> Set<Int> {
        var open: [(index: Int, isParen: Bool)] = []
        var groups = Set<Int>()
        for (i, token) in tokens.enumerated() {
            switch token.kind {
            case .punctuation(.openParen): open.append((i, true))
            case .punctuation(.openBrace), .punctuation(.openBracket): open.append((i, false))
            case .punctuation(.closeParen), .punctuation(.closeBrace), .punctuation(.closeBracket):
                // A bare "(predicate)" makes its enclosing group a predicate too: "((a > 1))".
                // Call parentheses (SUBQUERY(…), f(…)) do not: "(SUBQUERY(…).@count)" is a value.
                guard let closed = open.popLast(), closed.isParen, groups.contains(closed.index),
                    !isCallParenthesis(tokens, at: closed.index), let parent = open.last, parent.isParen
                else { continue }
                groups.insert(parent.index)
            default:
                guard isPredicateMarker(token.kind), let top = open.last, top.isParen else { continue }
                groups.insert(top.index)
            }
        }
        return groups
    }

    /// Whether the `(` at `index` opens the arguments of SUBQUERY, CAST or a function call.
    static func isCallParenthesis(_ tokens: [PredicateToken], at index: Int) -> Bool {
        guard index > 0 else { return false }
        switch tokens[index - 1].kind {
        case .identifier, .keyword(.subquery), .keyword(.cast), .keyword(.fetch), .punctuation(.colon): return true
        default: return false
        }
    }

    static func isPredicateMarker(_ kind: PredicateToken.Kind) -> Bool {
        if comparisonOperator(kind) != nil { return true }
        switch kind {
        case .punctuation(.and), .punctuation(.or), .punctuation(.not): return true
        case .keyword(.and), .keyword(.or), .keyword(.not), .keyword(.any), .keyword(.some), .keyword(.all),
            .keyword(.none), .keyword(.truePredicate), .keyword(.falsePredicate):
            return true
        default: return false
        }
    }
}
