import Foundation

/// The expression half of the parser: arithmetic, postfix key paths and indexes, atoms,
/// function calls, SUBQUERY, CAST and format-argument substitution.
extension PredicateParser {
    /// Binary operator levels, loosest first; all left-associative.
    static let binaryLevels: [[PredicateToken.Punctuation: ArithmeticOperator]] = [
        [.bar: .bitwiseOr],
        [.caret: .bitwiseXor],
        [.ampersand: .bitwiseAnd],
        [.shiftLeft: .leftShift, .shiftRight: .rightShift],
        [.plus: .add, .minus: .subtract],
        [.star: .multiply, .slash: .divide],
        [.power: .power],
    ]

    mutating func parseExpression() throws(PredicateParseError) -> ObjectExpression {
        try parseBinary(level: 0)
    }

    mutating func parseBinary(level: Int) throws(PredicateParseError) -> ObjectExpression {
        guard level < PredicateParser.binaryLevels.count else { return try parseUnary() }
        var left = try parseBinary(level: level + 1)
        let savedDepth = depth
        defer { depth = savedDepth }
        while case .punctuation(let p) = current.kind, let op = PredicateParser.binaryLevels[level][p] {
            advance()
            // A left-nested chain deepens the tree by one per operator.
            try enter()
            let right = try parseBinary(level: level + 1)
            left = .arithmetic(op, left, right)
        }
        return left
    }

    mutating func parseUnary() throws(PredicateParseError) -> ObjectExpression {
        try enter()
        defer { depth -= 1 }
        if isPunctuation(.minus) {
            advance()
            let operand = try parseUnary()
            // A negative literal is a constant, as Apple's lexer reads "-5".
            switch operand {
            case .constant(.attribute(.integer(let v))) where v != Int64.min: return .constant(.integer(-v))
            case .constant(.attribute(.double(let v))): return .constant(.double(-v))
            default: return .unary(.negate, operand)
            }
        }
        if isPunctuation(.tilde) {
            advance()
            return .unary(.onesComplement, try parseUnary())
        }
        return try parsePostfix()
    }

    mutating func parsePostfix() throws(PredicateParseError) -> ObjectExpression {
        var expression = try parseAtom()
        let savedDepth = depth
        defer { depth = savedDepth }
        // The keys of the whole chain, `a.b[FIRST].c` counting three: each to-many key
        // nests the value one level deeper, and every later key walks all the levels.
        var keys = if case .keyPath(let path) = expression { path.count } else { 0 }
        while true {
            if isPunctuation(.dot) {
                advance()
                let token = current
                let component = try keyComponent()
                keys += 1
                guard keys <= KeyValueCoding.maximumKeyPathLength else { throw fail(KeyValueCoding.keyPathTooLong, at: token) }
                PredicateParser.append(component, to: &expression)
            } else if isPunctuation(.openBracket) {
                let open = current
                advance()
                try enter()
                let selector: IndexSelector
                switch (current.kind, peekKind()) {
                case (.keyword(.first), .punctuation(.closeBracket)): selector = .first
                case (.keyword(.last), .punctuation(.closeBracket)): selector = .last
                case (.keyword(.size), .punctuation(.closeBracket)): selector = .size
                case (.keyword(let word), _) where word == .first || word == .last || word == .size:
                    advance()
                    let found = current.kind == .end ? "" : ", found '\(current.shownText)'"
                    throw fail("expected ']' after '\(word.rawValue)'\(found)")
                default:
                    if current.kind == .end || isPunctuation(.closeBracket) {
                        throw fail("expected an index, FIRST, LAST or SIZE after '['")
                    }
                    selector = .expression(try parseExpression())
                }
                if case .expression = selector {} else { advance() }
                try expect(.closeBracket, "to close the '[' at col \(open.column)")
                expression = .index(expression, selector)
            } else {
                return expression
            }
        }
    }

    /// A key after `.`: a name, `#word`, or `@operator`.
    mutating func keyComponent() throws(PredicateParseError) -> String {
        switch current.kind {
        case .identifier(let name), .collectionOperator(let name):
            advance()
            return name
        case .keyword:
            throw fail("'\(current.shownText)' is a reserved word; write #\(current.shownText) to use it as a key")
        default:
            let found = current.kind == .end ? "" : ", found '\(current.shownText)'"
            throw fail("expected a key after '.'\(found)")
        }
    }

    /// `expression` with a key added to the path it ends with.
    static func appending(_ component: String, to expression: ObjectExpression) -> ObjectExpression {
        var result = expression
        append(component, to: &result)
        return result
    }

    /// Adds a key to the path `expression` ends with. The path grows in place (the
    /// expression lets go of it first), so a path of n keys costs n, not n².
    static func append(_ component: String, to expression: inout ObjectExpression) {
        switch expression {
        case .keyPath(var path):
            expression = .constant(.null)
            path.append(component)
            expression = .keyPath(path)
        case .member(let base, var path):
            expression = .constant(.null)
            path.append(component)
            expression = .member(base, path)
        default:
            expression = .member(expression, [component])
        }
    }

    // MARK: Atoms

    mutating func parseAtom() throws(PredicateParseError) -> ObjectExpression {
        let token = current
        switch token.kind {
        case .integer(let value):
            advance()
            return .constant(.integer(value))
        case .double(let value):
            advance()
            return .constant(.double(value))
        case .string(let value):
            advance()
            return .constant(.string(value))
        case .keyword(.true), .keyword(.yes):
            advance()
            return .constant(.bool(true))
        case .keyword(.false), .keyword(.no):
            advance()
            return .constant(.bool(false))
        case .keyword(.null), .keyword(.nil):
            advance()
            return .constant(.null)
        case .keyword(.self):
            advance()
            return .evaluatedObject
        case .keyword(.anyKey):
            advance()
            return .anyKey
        case .keyword(.subquery): return try parseSubquery()
        case .keyword(.cast): return try parseCast()
        case .keyword(.fetch): throw fail("FETCH expressions are not supported")
        case .identifier(let name):
            let escaped = token.text.hasPrefix("#")
            if !escaped, peekKind() == .punctuation(.openParen) {
                if name.uppercased() == "FUNCTION" { return try parseSelectorCall() }
                return try parseFunctionCall(name: name)
            }
            if !escaped, peekKind() == .punctuation(.colon) { return try parseSelectorNamedFunction() }
            advance()
            return .keyPath([name])
        case .collectionOperator(let name):
            advance()
            return .keyPath([name])
        case .variable(let name):
            advance()
            if isPunctuation(.assign) { throw fail("assignment ('$\(name) :=') is not supported") }
            return .variable(name)
        case .format(let specifier):
            advance()
            return try substitute(specifier, token: token)
        case .punctuation(.openParen):
            advance()
            let inner = try parseExpression()
            try expect(.closeParen, "to close the '(' at col \(token.column)")
            return inner
        case .punctuation(.openBrace):
            advance()
            let elements = try parseList(closing: .closeBrace, opener: token)
            return .aggregate(elements)
        default:
            throw expectedValue()
        }
    }

    /// Comma-separated expressions up to `closing` (already past the opener).
    mutating func parseList(closing: PredicateToken.Punctuation, opener: PredicateToken)
        throws(PredicateParseError) -> [ObjectExpression]
    {
        var elements: [ObjectExpression] = []
        if isPunctuation(closing) {
            advance()
            return elements
        }
        while true {
            elements.append(try parseExpression())
            if isPunctuation(.comma) {
                advance()
                continue
            }
            try expect(closing, "to close the '\(opener.text)' at col \(opener.column)")
            return elements
        }
    }

    /// `name(args)` for a built-in function such as `sum`, `now`, `sqrt`.
    mutating func parseFunctionCall(name: String) throws(PredicateParseError) -> ObjectExpression {
        let nameToken = current
        advance()
        let open = current
        advance()
        let arguments = try parseList(closing: .closeParen, opener: open)
        return try makeFunction(name: name, arguments: arguments, at: nameToken)
    }

    /// `add:to:(1, 2)`: a function called by its full selector-style name.
    mutating func parseSelectorNamedFunction() throws(PredicateParseError) -> ObjectExpression {
        let nameToken = current
        var name = ""
        while case .identifier(let part) = current.kind, peekKind() == .punctuation(.colon) {
            name += part + ":"
            advance()
            advance()
        }
        guard isPunctuation(.openParen) else {
            throw fail("expected '(' after the function name '\(PredicateToken.shown(name))'")
        }
        let open = current
        advance()
        let arguments = try parseList(closing: .closeParen, opener: open)
        return try makeFunction(name: name, arguments: arguments, at: nameToken)
    }

    func makeFunction(name: String, arguments: [ObjectExpression], at token: PredicateToken)
        throws(PredicateParseError) -> ObjectExpression
    {
        guard let function = BuiltinFunction(name: name, argumentCount: arguments.count) else {
            throw fail("unknown function '\(PredicateToken.shown(name))'", at: token)
        }
        if let arity = function.arity, arity != arguments.count {
            let noun = arity == 1 ? "argument" : "arguments"
            throw fail("function '\(function.rawValue)' takes \(arity) \(noun), not \(arguments.count)", at: token)
        }
        if function.arity == nil, arguments.isEmpty {
            throw fail("function '\(function.rawValue)' needs a collection argument", at: token)
        }
        return .function(function, arguments)
    }

    /// `FUNCTION(receiver, 'selector:', args…)`.
    mutating func parseSelectorCall() throws(PredicateParseError) -> ObjectExpression {
        let nameToken = current
        advance()
        let open = current
        advance()
        let arguments = try parseList(closing: .closeParen, opener: open)
        guard arguments.count >= 2 else {
            throw fail("FUNCTION needs a receiver and a selector name", at: nameToken)
        }
        guard case .constant(.attribute(.string(let selector))) = arguments[1], !selector.isEmpty else {
            throw fail("the selector of FUNCTION must be a string", at: nameToken)
        }
        return .selector(receiver: arguments[0], selector: selector, arguments: Array(arguments.dropFirst(2)))
    }

    /// `CAST(value, 'Type')`; a constant number or ISO 8601 string cast to NSDate becomes a
    /// date constant.
    mutating func parseCast() throws(PredicateParseError) -> ObjectExpression {
        let nameToken = current
        advance()
        let open = current
        try expect(.openParen, "after CAST")
        let arguments = try parseList(closing: .closeParen, opener: open)
        guard arguments.count == 2 else { throw fail("CAST takes a value and a type name", at: nameToken) }
        guard case .constant(.attribute(.string(let type))) = arguments[1] else {
            throw fail("the type of CAST must be a string such as 'NSDate'", at: nameToken)
        }
        if type == "NSDate", case .constant(.attribute(let value)) = arguments[0], value.stringValue == nil,
            let seconds = value.doubleValue
        {
            return .constant(.date(Date(timeIntervalSinceReferenceDate: seconds)))
        }
        // An ISO 8601 string (`CAST("2010-01-01T00:00:00Z", "NSDate")`; UTC without a zone).
        if type == "NSDate", case .constant(.attribute(.string(let text))) = arguments[0], Double(text) == nil,
            let date = try? ISO8601DateText.date(from: text)
        {
            return .constant(.date(date))
        }
        return .cast(arguments[0], type: type)
    }

    /// `SUBQUERY(collection, $variable, predicate)`.
    mutating func parseSubquery() throws(PredicateParseError) -> ObjectExpression {
        advance()
        let open = current
        try expect(.openParen, "after SUBQUERY")
        let collection = try parseExpression()
        try expect(.comma, "after the SUBQUERY collection")
        guard case .variable(let variable) = current.kind else {
            throw fail("expected a $variable as the second argument of SUBQUERY")
        }
        advance()
        try expect(.comma, "after the SUBQUERY variable")
        let predicate = try parseOr()
        try expect(.closeParen, "to close the SUBQUERY at col \(open.column)")
        return .subquery(collection: collection, variable: variable, predicate: predicate)
    }

    // MARK: Format arguments

    mutating func substitute(_ specifier: FormatSpecifier, token: PredicateToken) throws(PredicateParseError)
        -> ObjectExpression
    {
        guard argumentIndex < arguments.count else {
            throw fail("missing argument for \(token.text) (argument \(argumentIndex + 1))", at: token)
        }
        let argument = arguments[argumentIndex]
        argumentIndex += 1
        let ordinal = "argument \(argumentIndex) for \(token.text)"
        switch specifier {
        case .object:
            return .constant(argument)
        case .keyPath:
            guard let path = argument.stringValue, !path.isEmpty else {
                throw fail("\(ordinal) must be a key path string", at: token)
            }
            let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !components.contains(where: \.isEmpty) else {
                throw fail("\(ordinal) is not a valid key path: '\(PredicateToken.shown(path))'", at: token)
            }
            guard components.count <= KeyValueCoding.maximumKeyPathLength else {
                throw fail("\(ordinal): \(KeyValueCoding.keyPathTooLong)", at: token)
            }
            return .keyPath(components)
        case .integer:
            guard case .attribute(let value) = argument, value.stringValue == nil, let number = value.doubleValue,
                number.isFinite, abs(number) < 9.2e18
            else {
                throw fail("\(ordinal) must be an integer", at: token)
            }
            return .constant(.integer(value.integerValue ?? Int64(number.rounded(.towardZero))))
        case .double:
            guard case .attribute(let value) = argument, value.stringValue == nil, let number = value.doubleValue else {
                throw fail("\(ordinal) must be a number", at: token)
            }
            return .constant(.double(number))
        case .character:
            if let text = argument.stringValue, let first = text.first { return .constant(.string(String(first))) }
            if let code = argument.attributeValue?.integerValue, let scalar = Unicode.Scalar(UInt32(clamping: code)) {
                return .constant(.string(String(Character(scalar))))
            }
            throw fail("\(ordinal) must be a character", at: token)
        case .cString:
            guard let text = argument.stringValue else { throw fail("\(ordinal) must be a string", at: token) }
            return .constant(.string(text))
        }
    }
}
