/// Splits a format string into tokens.
///
/// Works on Unicode scalars so columns are stable; only ASCII identifiers are accepted
/// outside quotes, as on Apple (non-ASCII key paths do not parse there either).
struct PredicateLexer {
    private let scalars: [Unicode.Scalar]
    private var position = 0

    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    /// All tokens, ending with `.end`.
    static func tokenize(_ text: String) throws(PredicateParseError) -> [PredicateToken] {
        var lexer = PredicateLexer(text)
        var tokens: [PredicateToken] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        let index = position + offset
        return index < scalars.count ? scalars[index] : nil
    }

    private func error(_ message: String, at index: Int) -> PredicateParseError {
        PredicateParseError(column: index + 1, message: message)
    }

    private static func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
        c == "_" || ("a"..."z").contains(c) || ("A"..."Z").contains(c)
    }

    private static func isIdentifierBody(_ c: Unicode.Scalar) -> Bool {
        isIdentifierStart(c) || ("0"..."9").contains(c)
    }

    private mutating func next() throws(PredicateParseError) -> PredicateToken {
        while let c = peek(), c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0B}" || c == "\u{0C}" {
            position += 1
        }
        let start = position
        guard let c = peek() else { return PredicateToken(kind: .end, column: start + 1, text: "") }
        let kind: PredicateToken.Kind
        switch c {
        case "'", "\"": kind = .string(try stringLiteral(quote: c))
        case "0"..."9": kind = try number()
        case "$":
            position += 1
            guard let name = identifierText() else { throw error("expected a variable name after '$'", at: start) }
            kind = .variable(name)
        case "#":
            position += 1
            guard let name = identifierText() else { throw error("expected a name after '#'", at: start) }
            kind = .identifier(name)
        case "@":
            position += 1
            guard let name = identifierText() else { throw error("expected a collection operator after '@'", at: start) }
            kind = .collectionOperator("@" + name)
        case "%": kind = .format(try formatSpecifier())
        default:
            if PredicateLexer.isIdentifierStart(c) {
                kind = word()
            } else {
                kind = .punctuation(try punctuation())
            }
        }
        let text = String(String.UnicodeScalarView(scalars[start..<position]))
        return PredicateToken(kind: kind, column: start + 1, text: text)
    }

    private mutating func identifierText() -> String? {
        guard let c = peek(), PredicateLexer.isIdentifierStart(c) else { return nil }
        let start = position
        while let c = peek(), PredicateLexer.isIdentifierBody(c) { position += 1 }
        return String(String.UnicodeScalarView(scalars[start..<position]))
    }

    /// An identifier or keyword; `UTI-CONFORMS-TO` and `UTI-EQUALS` contain hyphens.
    private mutating func word() -> PredicateToken.Kind {
        let name = identifierText() ?? ""
        let upper = name.uppercased()
        if upper == "UTI" {
            for suffix in ["-CONFORMS-TO", "-EQUALS"] where matchesAhead(suffix) {
                position += suffix.unicodeScalars.count
                return .keyword(upper == "UTI" && suffix == "-EQUALS" ? .utiEquals : .utiConformsTo)
            }
        }
        if let keyword = PredicateKeyword.byWord[upper] { return .keyword(keyword) }
        return .identifier(name)
    }

    /// Whether the text ahead spells `word`, ignoring case, and is not followed by a name character.
    private func matchesAhead(_ word: String) -> Bool {
        var offset = 0
        for expected in word.uppercased().unicodeScalars {
            guard let c = peek(offset), String(c).uppercased() == String(expected) else { return false }
            offset += 1
        }
        if let after = peek(offset), PredicateLexer.isIdentifierBody(after) { return false }
        return true
    }

    private mutating func punctuation() throws(PredicateParseError) -> PredicateToken.Punctuation {
        let start = position
        guard let c = peek() else { throw error("unexpected end", at: start) }
        let following = peek(1)
        position += 1
        func take(_ p: PredicateToken.Punctuation) -> PredicateToken.Punctuation {
            position += 1
            return p
        }
        switch c {
        case "(": return .openParen
        case ")": return .closeParen
        case "{": return .openBrace
        case "}": return .closeBrace
        case "[": return .openBracket
        case "]": return .closeBracket
        case ",": return .comma
        case ".": return .dot
        case ":": return following == "=" ? take(.assign) : .colon
        case "=":
            switch following {
            case "=": return take(.equal)
            case "<": return take(.lessOrEqual)
            case ">": return take(.greaterOrEqual)
            default: return .equal
            }
        case "!": return following == "=" ? take(.notEqual) : .not
        case "<":
            switch following {
            case "=": return take(.lessOrEqual)
            case ">": return take(.notEqual)
            case "<": return take(.shiftLeft)
            default: return .less
            }
        case ">":
            switch following {
            case "=": return take(.greaterOrEqual)
            case ">": return take(.shiftRight)
            default: return .greater
            }
        case "&": return following == "&" ? take(.and) : .ampersand
        case "|": return following == "|" ? take(.or) : .bar
        case "*": return following == "*" ? take(.power) : .star
        case "+": return .plus
        case "-": return .minus
        case "/":
            if following == "*" || following == "/" { throw error("comments are not allowed", at: start) }
            return .slash
        case "^": return .caret
        case "~": return .tilde
        case "?": throw error("'?' is not a token; write a value or a format specifier", at: start)
        default:
            throw error("unexpected character '\(String(c).debugDescription.dropFirst().dropLast())'", at: start)
        }
    }

    // MARK: Literals

    private mutating func stringLiteral(quote: Unicode.Scalar) throws(PredicateParseError) -> String {
        let start = position
        position += 1
        var result = String.UnicodeScalarView()
        while true {
            guard let c = peek() else { throw error("unterminated string literal", at: start) }
            position += 1
            if c == quote { return String(result) }
            if c != "\\" {
                result.append(c)
                continue
            }
            guard let escaped = peek() else { throw error("unterminated string literal", at: start) }
            position += 1
            switch escaped {
            case "n": result.append("\n")
            case "t": result.append("\t")
            case "r": result.append("\r")
            case "a": result.append("\u{07}")
            case "b": result.append("\u{08}")
            case "f": result.append("\u{0C}")
            case "v": result.append("\u{0B}")
            case "0"..."7":
                // \ooo: up to three octal digits (the first is already taken).
                var value = escaped.value - 48
                for _ in 0..<2 {
                    guard let d = peek(), ("0"..."7").contains(d) else { break }
                    value = value * 8 + (d.value - 48)
                    position += 1
                }
                result.append(try scalar(value, at: position - 1))
            case "x":
                let value = hexDigits(max: 2)
                if let value { result.append(try scalar(value, at: position - 1)) } else { result.append("x") }
            case "u":
                guard var value = hexDigits(max: 4) else {
                    result.append("u")
                    continue
                }
                // A UTF-16 surrogate pair arrives as two \u escapes.
                if (0xD800...0xDBFF).contains(value), peek() == "\\", peek(1) == "u" {
                    let save = position
                    position += 2
                    if let low = hexDigits(max: 4), (0xDC00...0xDFFF).contains(low) {
                        value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        position = save
                    }
                }
                result.append(try scalar(value, at: position - 1))
            default: result.append(escaped)
            }
        }
    }

    private func scalar(_ value: UInt32, at index: Int) throws(PredicateParseError) -> Unicode.Scalar {
        guard let scalar = Unicode.Scalar(value) else {
            throw error("invalid character escape in string literal", at: index)
        }
        return scalar
    }

    private mutating func hexDigits(max: Int) -> UInt32? {
        var value: UInt32 = 0
        var count = 0
        while count < max, let c = peek(), let digit = PredicateLexer.hexValue(c) {
            value = value * 16 + digit
            position += 1
            count += 1
        }
        return count > 0 ? value : nil
    }

    private static func hexValue(_ c: Unicode.Scalar) -> UInt32? {
        switch c {
        case "0"..."9": c.value - 48
        case "a"..."f": c.value - 87
        case "A"..."F": c.value - 55
        default: nil
        }
    }

    private mutating func number() throws(PredicateParseError) -> PredicateToken.Kind {
        let start = position
        if peek() == "0", let prefix = peek(1), let radix = PredicateLexer.radix(prefix) {
            position += 2
            var value: Int64 = 0
            var digits = 0
            while let c = peek(), let digit = PredicateLexer.hexValue(c), digit < radix {
                let (shifted, overflow1) = value.multipliedReportingOverflow(by: Int64(radix))
                let (sum, overflow2) = shifted.addingReportingOverflow(Int64(digit))
                if overflow1 || overflow2 { throw error("number is too large", at: start) }
                value = sum
                position += 1
                digits += 1
            }
            if digits == 0 { throw error("expected digits after '0\(prefix)'", at: start) }
            try rejectTrailingLetters(start: start)
            return .integer(value)
        }
        var isFloatingPoint = false
        while let c = peek(), ("0"..."9").contains(c) { position += 1 }
        if peek() == ".", let d = peek(1), ("0"..."9").contains(d) {
            isFloatingPoint = true
            position += 1
            while let c = peek(), ("0"..."9").contains(c) { position += 1 }
        }
        if let e = peek(), e == "e" || e == "E" {
            var offset = 1
            if let sign = peek(1), sign == "+" || sign == "-" { offset = 2 }
            if let d = peek(offset), ("0"..."9").contains(d) {
                isFloatingPoint = true
                position += offset
                while let c = peek(), ("0"..."9").contains(c) { position += 1 }
            }
        }
        try rejectTrailingLetters(start: start)
        let text = String(String.UnicodeScalarView(scalars[start..<position]))
        if !isFloatingPoint, let value = Int64(text) { return .integer(value) }
        guard let value = Double(text), value.isFinite else { throw error("number is out of range", at: start) }
        return .double(value)
    }

    private static func radix(_ c: Unicode.Scalar) -> UInt32? {
        switch c {
        case "x", "X": 16
        case "o", "O": 8
        case "b", "B": 2
        default: nil
        }
    }

    private func rejectTrailingLetters(start: Int) throws(PredicateParseError) {
        if let c = peek(), PredicateLexer.isIdentifierBody(c) {
            throw error("malformed number", at: start)
        }
    }

    // MARK: Format specifiers

    /// `%@ %K %%` and printf conversions with optional flags, width, precision and length.
    private mutating func formatSpecifier() throws(PredicateParseError) -> FormatSpecifier {
        let start = position
        position += 1
        switch peek() {
        case "@":
            position += 1
            return .object
        case "K":
            position += 1
            return .keyPath
        case "%":
            throw error("'%%' is a literal percent sign, which is not a value outside quotes", at: start)
        default: break
        }
        while let c = peek(), "-+ #0".unicodeScalars.contains(c) { position += 1 }
        while let c = peek(), ("0"..."9").contains(c) { position += 1 }
        if peek() == ".", let d = peek(1), ("0"..."9").contains(d) {
            position += 1
            while let c = peek(), ("0"..."9").contains(c) { position += 1 }
        }
        while let c = peek(), "hlqLztj".unicodeScalars.contains(c) { position += 1 }
        guard let conversion = peek() else { throw error("incomplete format specifier", at: start) }
        position += 1
        switch conversion {
        case "d", "i", "o", "u", "x", "X", "p", "D", "U", "O": return .integer
        case "f", "F", "e", "E", "g", "G", "a", "A": return .double
        case "c", "C": return .character
        case "s", "S": return .cString
        default:
            throw error("unknown format specifier '%\(String(conversion))'", at: start)
        }
    }
}
