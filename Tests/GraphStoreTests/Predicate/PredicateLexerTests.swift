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
