import Testing

@testable import GraphStore

@Suite("Predicate lexer")
struct PredicateLexerTests {
    private func kinds(_ text: String) throws -> [PredicateToken.Kind] {
        try PredicateLexer.tokenize(text).map(\.kind).dropLast()
    }

    @Test("both quote kinds, escapes and non-terminating other quotes")
    func strings() throws {
        #expect(try kinds(#""O'Brien""#) == [.string("O'Brien")])
        #expect(try kinds(#"'say "hi"'"#) == [.string("say \"hi\"")])
        #expect(try kinds(#"'it\'s'"#) == [.string("it's")])
        #expect(try kinds(#""a\tb\nc\\d""#) == [.string("a\tb\nc\\d")])
        #expect(try kinds(#""\x41\101\u00e9\q""#) == [.string("AAéq")])
        #expect(try kinds(#""\ud83d\ude00""#) == [.string("😀")])
        #expect(try kinds("'%@'") == [.string("%@")])
    }

    @Test("quotes follow the grammar, not the font: a combining mark never hides a closing quote")
    func combiningMarksAndQuotes() throws {
        // After a closing quote the mark is a character of its own, outside the string: not
        // a token, reported where it is (not as an unterminated string at the quote).
        let afterQuote = "title == \"cafe\"\u{301}"
        #expect(throws: PredicateParseError(column: 16, message: "unexpected character '\\u{0301}'")) { try self.kinds(afterQuote) }
        #expect(throws: PredicateParseError(column: 16, message: "unexpected character '\\u{0301}'")) { try self.kinds("title == 'cafe'\u{301}") }
        // After an identifier or a number likewise.
        #expect(throws: PredicateParseError(column: 6, message: "unexpected character '\\u{0301}'")) { try self.kinds("title\u{301} == 1") }
        #expect(throws: PredicateParseError(column: 11, message: "unexpected character '\\u{0301}'")) { try self.kinds("price == 1\u{301}") }
        // Inside a string, marks and emoji sequences are kept scalar for scalar.
        #expect(try kinds("\"cafe\u{301}\"") == [.string("cafe\u{301}")])
        #expect(try kinds("'\"\u{301}'") == [.string("\"\u{301}")])
        for emoji in ["👨‍👩‍👧", "🇫🇷", "👍🏽", "☺️"] {
            let tokens = try kinds("name == '\(emoji)' AND x == 1")
            #expect(tokens.count == 7)
            guard case .string(let text) = tokens[2] else {
                Issue.record("\(emoji): \(tokens)")
                continue
            }
            #expect(Array(text.unicodeScalars) == Array(emoji.unicodeScalars))
        }
    }

    @Test("numbers in every base and with exponents")
    func numbers() throws {
        #expect(try kinds("30 0x1F 0o36 0b11110 2.5 1e-3 3E2") == [
            .integer(30), .integer(31), .integer(30), .integer(30), .double(2.5), .double(0.001), .double(300),
        ])
        #expect(try kinds("99999999999999999999") == [.double(1e20)])
        #expect(throws: PredicateParseError.self) { try kinds("0x") }
        #expect(throws: PredicateParseError.self) { try kinds("12abc") }
    }

    @Test("keywords are case-insensitive; #word escapes them; key paths keep their case")
    func keywords() throws {
        #expect(try kinds("aNd truePredicate NiL SeLf") == [
            .keyword(.and), .keyword(.truePredicate), .keyword(.nil), .keyword(.self),
        ])
        #expect(try kinds("#like Name") == [.identifier("like"), .identifier("Name")])
        #expect(try kinds("UTI-CONFORMS-TO uti-equals") == [.keyword(.utiConformsTo), .keyword(.utiEquals)])
    }

    @Test("operators take the longest spelling")
    func operators() throws {
        let expected: [PredicateToken.Punctuation] = [
            .equal, .equal, .notEqual, .notEqual, .lessOrEqual, .lessOrEqual, .greaterOrEqual, .greaterOrEqual,
            .shiftLeft, .shiftRight, .power, .star, .and, .ampersand, .or, .bar, .not,
        ]
        #expect(try kinds("= == != <> <= =< >= => << >> ** * && & || | !") == expected.map { .punctuation($0) })
    }

    @Test("variables, collection operators and format specifiers")
    func specials() throws {
        #expect(try kinds("$x @count %@ %K %d %ld %5.2f %s %i %lu") == [
            .variable("x"), .collectionOperator("@count"), .format(.object), .format(.keyPath), .format(.integer),
            .format(.integer), .format(.double), .format(.cString), .format(.integer), .format(.integer),
        ])
        #expect(throws: PredicateParseError.self) { try kinds("%k") }
    }

    @Test("columns are 1-based")
    func columns() throws {
        let tokens = try PredicateLexer.tokenize("age  >= 'x'")
        #expect(tokens.map(\.column) == [1, 6, 9, 12])
    }
}
