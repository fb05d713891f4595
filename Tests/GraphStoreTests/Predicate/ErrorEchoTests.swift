import Foundation
import Testing

@testable import GraphStore

/// Errors that echo SQL or predicate text stay readable: at most an excerpt around the
/// problem, with `…` where text was cut and the column still right.
@Suite("Error echoes of long SQL and predicates")
struct ErrorEchoTests {
    /// `price == 0 AND price == 1 AND … AND price == 999`: some 17,000 characters.
    static let chain = (0..<1000).map { "price == \($0)" }.joined(separator: " AND ")

    /// The scalar at a 1-based column of a text.
    private static func scalar(_ text: String, column: Int) -> Unicode.Scalar? {
        let scalars = Array(text.unicodeScalars)
        return column >= 1 && column <= scalars.count ? scalars[column - 1] : nil
    }

    @Test("an excerpt keeps short text whole and cuts long text around the position")
    func excerpts() {
        let short = TextExcerpt("name == ", around: 8)
        #expect(short.text == "name == " && short.column == 9 && !short.isCut)

        let text = Self.chain
        let count = text.unicodeScalars.count
        for offset in [0, 5, 100, count / 2, count - 3, count - 1, count] {
            let excerpt = TextExcerpt(text, around: offset)
            #expect(excerpt.text.unicodeScalars.count <= TextExcerpt.defaultWidth + 2, "at \(offset)")
            #expect(excerpt.text.hasPrefix("…") == (offset > TextExcerpt.defaultWidth), "at \(offset)")
            #expect(excerpt.text.hasSuffix("…") == (offset < count - TextExcerpt.defaultWidth / 3), "at \(offset)")
            // The column points at the same scalar as the offset does in the whole text.
            #expect(Self.scalar(excerpt.text, column: excerpt.column) == Self.scalar(text, column: offset + 1), "at \(offset)")
        }
        let pointer = TextExcerpt("a ==\n\tb", around: 6).pointer
        #expect(pointer == "  a ==  b\n        ^", "line breaks and tabs show as spaces so the caret lines up")
        #expect(TextExcerpt("é = 'x' AND", aroundUTF8Offset: 6).column == 6, "a UTF-8 offset counts é as one column")
    }

    @Test("a parse error near the end or the start of a 1,000-term chain")
    func parseErrorsInLongChains() throws {
        for (format, column) in [(Self.chain + " AND price ==", Self.chain.count + 14), ("price == AND " + Self.chain, 10)] {
            let error = try #require(throws: PredicateParseError.self) { try ObjectPredicate(format: format) }
            #expect(error.column == column)
            #expect(error.description.count < 100, "\(error.description.count) characters")
            let excerpt = TextExcerpt(format, around: error.column - 1)
            #expect(excerpt.isCut)
            #expect(excerpt.text.unicodeScalars.count <= TextExcerpt.defaultWidth + 2)
            #expect(Self.scalar(excerpt.text, column: excerpt.column) == Self.scalar(format, column: column))
        }
    }

    @Test("a long string literal quoted in a parse error is cut")
    func longTokensAreCut() throws {
        let literal = "'" + String(repeating: "x", count: 5000) + "'"
        let error = try #require(throws: PredicateParseError.self) { try ObjectPredicate(format: "name == 'a' " + literal) }
        #expect(error.message.hasPrefix("expected AND, OR or the end of the predicate, found ''xxxx"))
        #expect(error.message.count < TextExcerpt.quotedWidth + 60)
        #expect(error.message.hasSuffix("…'"))
    }

    @Test("an invalid regular expression is quoted cut")
    func longInvalidPattern() throws {
        let pattern = "(" + String(repeating: "a", count: 5000)
        let predicate = try ObjectPredicate(format: "SELF MATCHES %@", pattern)
        let error = try #require(throws: PredicateEvaluationError.self) { try predicate.evaluate(withValue: .string("a")) }
        #expect(error.message.count < TextExcerpt.quotedWidth + 40)
    }

    @Test("an SQLite error quotes an excerpt of its SQL around the place SQLite points at")
    func sqliteErrorsQuoteAnExcerpt() throws {
        let connection = try Connection(path: ":memory:", mode: .create)
        let sql = "SELECT " + (0..<500).map { "\($0)" }.joined(separator: " + ") + " FORM nothing"
        let error = try #require(throws: SQLiteError.self) { try connection.prepare(sql) }
        #expect(error.sql == sql, "the property keeps the whole statement")
        let offset = try #require(error.offset)
        #expect(sql.utf8.dropFirst(offset).starts(with: "nothing".utf8) || sql.utf8.dropFirst(offset).starts(with: "FORM".utf8))
        #expect(error.description.count < 300, "\(error.description.count) characters")
        #expect(error.description.contains("FORM nothing)"))
        #expect(error.description.contains("(in: …"))
    }

    @Test("a 1,000-term chain that SQLite cannot take fails with a readable message")
    func sqlOfALongChain() throws {
        let (_, context) = try FetchFixtures.peopleStore()
        let chain = (0..<1000).map { "age != \($0)" }.joined(separator: " AND ")
        // SQLite limits expression depth to 1,000; the message must not quote all the SQL.
        let error = try #require(throws: (any Error).self) { try context.fetch(FetchRequest(entityName: "Person", format: chain)) }
        #expect("\(error)".contains("Expression tree is too large"))
        #expect("\(error)".count < 400, "\("\(error)".count) characters")
    }
}
