import Foundation
import Testing

@testable import GraphStore
@testable import GraphStoreShell

/// The output modes, one behaviour at a time.
@Suite struct ResultWriterTests {
    static let date = Date(timeIntervalSince1970: 1_409_565_600)  // 2014-09-01T10:00:00Z

    func write(_ mode: OutputMode, columns: [String] = ["title", "price", "added"], rows: [[Cell]], configure: (inout OutputSettings) -> Void = { _ in })
        -> String
    {
        var settings = OutputSettings()
        settings.mode = mode
        configure(&settings)
        var text = ""
        let writer = ResultWriter(settings: settings) { text += $0 }
        writer.begin(columns: columns)
        for row in rows { writer.row(row) }
        writer.end()
        return text
    }

    let books: [[Cell]] = [
        [.text("Dune"), .value(.double(9.5)), .value(.date(ResultWriterTests.date))],
        [.text("Emma, a \"novel\""), .value(.integer(12)), .null],
    ]

    @Test func emptyJSONIsAnEmptyArray() throws {
        let text = write(.json, rows: [])
        #expect(text == "[]\n")
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8))
        #expect((parsed as? [Any])?.isEmpty == true)
    }

    @Test func jsonKeepsTypesAndWritesISODates() throws {
        let text = write(.json, rows: books)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(parsed.count == 2)
        #expect(parsed[0]["price"] as? Double == 9.5)
        #expect(parsed[1]["price"] as? Int == 12)
        #expect(parsed[0]["added"] as? String == "2014-09-01T10:00:00Z")
        #expect(parsed[1]["added"] is NSNull)
        #expect(parsed[1]["title"] as? String == "Emma, a \"novel\"")
    }

    @Test func jsonWritesBooleansDataAndNonFiniteNumbersAsJSONCan() throws {
        let text = write(.jsonl, columns: ["flag", "blob", "ratio"], rows: [[.value(.bool(true)), .value(.data(Data([1, 2, 3]))), .value(.double(.infinity))]])
        #expect(text == #"{"flag":true,"blob":"AQID","ratio":null}"# + "\n")
    }

    @Test func jsonlIsOneObjectPerLine() throws {
        let lines = write(.jsonl, rows: books).split(separator: "\n")
        #expect(lines.count == 2)
        for line in lines { _ = try JSONSerialization.jsonObject(with: Data(line.utf8)) }
        #expect(write(.jsonl, rows: []) == "")
    }

    @Test func jsonEscapesControlCharacters() throws {
        let text = write(.jsonl, columns: ["t"], rows: [[.text("a\tb\n\u{1}")]])
        #expect(text == #"{"t":"a\tb\n\u0001"}"# + "\n")
    }

    @Test func csvQuotesOnlyWhatNeedsIt() {
        let text = write(.csv, rows: books) { $0.nullText = "NULL" }
        #expect(text == "title,price,added\nDune,9.5,2014-09-01T10:00:00Z\n\"Emma, a \"\"novel\"\"\",12,NULL\n")
        #expect(write(.csv, rows: books) { $0.headers = false }.hasPrefix("Dune,"))
    }

    @Test func tsvEscapesTabsNewlinesAndBackslashes() {
        let text = write(.tsv, columns: ["a", "b"], rows: [[.text("x\ty"), .text("1\\2\n3")]])
        #expect(text == "a\tb\nx\\ty\t1\\\\2\\n3\n")
    }

    @Test func tableAlignsColumnsLeftAsSQLite3Does() {
        let text = write(.table, rows: books) { $0.nullText = "∅" }
        #expect(
            text == """
                +-----------------+-------+----------------------+
                | title           | price | added                |
                +-----------------+-------+----------------------+
                | Dune            | 9.5   | 2014-09-01T10:00:00Z |
                | Emma, a "novel" | 12    | ∅                    |
                +-----------------+-------+----------------------+

                """)
    }

    @Test func boxAndMarkdownBorders() {
        let box = write(.box, columns: ["a"], rows: [[.text("x")]])
        #expect(box == "┌───┐\n│ a │\n├───┤\n│ x │\n└───┘\n")
        let markdown = write(.markdown, columns: ["name", "n"], rows: [[.text("a|b"), .value(.integer(3))]])
        #expect(markdown == "| name | n |\n|------|---|\n| a\\|b | 3 |\n")
    }

    @Test func lineModeRightAlignsLabelsAndSeparatesRows() {
        let text = write(.line, columns: ["title", "n"], rows: [[.text("Dune"), .value(.integer(1))], [.text("Two\nlines"), .null]]) {
            $0.nullText = "NULL"
        }
        #expect(text == "title = Dune\n    n = 1\n\ntitle = Two\n        lines\n    n = NULL\n")
    }

    @Test func headersOffLeavesOnlyRows() {
        #expect(write(.table, columns: ["a"], rows: [[.text("x")]]) { $0.headers = false } == "+---+\n| x |\n+---+\n")
        #expect(write(.tsv, columns: ["a"], rows: [[.text("x")]]) { $0.headers = false } == "x\n")
    }

    @Test func wideTablesAreCutToTheTerminalWithAnEllipsis() {
        let long = String(repeating: "word ", count: 30)
        let text = write(.table, columns: ["id", "text"], rows: [[.value(.integer(1)), .text(long)]]) { $0.terminalWidth = 40 }
        for line in text.split(separator: "\n") { #expect(DisplayWidth.of(String(line)) <= 40, "\(line)") }
        #expect(text.contains("…"))
        #expect(text.contains("| 1  | word word"))
        // Not on a terminal: nothing is cut.
        #expect(write(.table, columns: ["id", "text"], rows: [[.value(.integer(1)), .text(long)]]).contains(long))
    }

    @Test func fittingCutsOnlyTheWidestColumns() {
        #expect(ColumnLayout.fit(natural: [4, 50, 10], overhead: 10, available: 80) == [4, 50, 10])
        let fitted = ColumnLayout.fit(natural: [4, 50, 40], overhead: 10, available: 60)
        #expect(fitted[0] == 4)
        #expect(fitted.reduce(0, +) == 50)
        #expect(abs(fitted[1] - fitted[2]) <= 1)
        // Never below the minimum, even if the row then overflows.
        #expect(ColumnLayout.fit(natural: [10, 10, 10], overhead: 10, available: 12) == [3, 3, 3])
    }

    @Test func wideCharactersCountTwoColumns() {
        #expect(DisplayWidth.of("書籍") == 4)
        #expect(DisplayWidth.of("café") == 4)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.prefix("書籍です", fitting: 5) == "書籍")
        let text = write(.table, columns: ["t"], rows: [[.text("書籍")], [.text("abcd")]])
        #expect(text.contains("| 書籍 |") && text.contains("| abcd |"))
    }

    @Test func colourOnlyWhenAsked() {
        let plain = write(.table, columns: ["a"], rows: [[.null]])
        #expect(!plain.contains("\u{1b}["))
        let coloured = write(.table, columns: ["a"], rows: [[.null]]) {
            $0.colour = true
            $0.nullText = "NULL"
        }
        #expect(coloured.contains("\u{1b}[1ma\u{1b}[0m"))
        #expect(coloured.contains("\u{1b}[2mNULL\u{1b}[0m"))
    }

    @Test func maxColumnWidthCutsLongValues() {
        let text = write(.table, columns: ["t"], rows: [[.text("abcdefghij")]]) { $0.maxColumnWidth = 5 }
        #expect(text.contains("| abcd… |"))
    }

    /// Rows leave the writer as they arrive: a result is never gathered whole in memory.
    @Test(arguments: OutputMode.allCases) func resultsStream(mode: OutputMode) {
        var settings = OutputSettings()
        settings.mode = mode
        var written = ""
        let writer = ResultWriter(settings: settings) { written += $0 }
        writer.begin(columns: ["n"])
        let total = 2 * ResultWriter.measuredRows + 10
        for i in 0..<total { writer.row([.value(.integer(Int64(i)))]) }
        // Before end(): every row past the measured ones is already out.
        #expect(written.contains("\(total - 1)"), "\(mode) held its rows back")
        writer.end()
    }
}
