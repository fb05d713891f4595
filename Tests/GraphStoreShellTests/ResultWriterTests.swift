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

    /// The byte scan that decides CSV quoting agrees with the rule in characters: a quote,
    /// any line break `isNewline` names, the separator, a space at either end.
    @Test func csvQuotingByBytesMatchesTheRuleInCharacters() {
        let samples = [
            "plain", "Å ring", "é", "\u{85}next", "line\u{2028}sep", "para\u{2029}", "\u{2027}\u{202A}", "a\r\nb", "tab\tok", "vt\u{0B}",
            "ff\u{0C}", " lead", "trail ", "q\"uote", "a,b", "a;b", "日本語", "x\u{C2}\u{A0}y", "",
        ]
        for separator in [",", ";", "||", "\t"] {
            for text in samples {
                let byCharacters = text.contains { $0 == "\"" || $0.isNewline } || (!separator.isEmpty && text.contains(separator))
                    || text.first == " " || text.last == " "
                #expect(FieldText.csvNeedsQuotes(text, separator: separator) == byCharacters, "\(text.debugDescription) with \(separator.debugDescription)")
            }
        }
        #expect(FieldText.csv("a\"b") == "\"a\"\"b\"")
        #expect(JSONText.string("plain é") == "\"plain é\"" && JSONText.string("a\"\\\u{7F}\u{1}") == #""a\"\\\u007f\u0001""#)
    }

    /// A megabyte-long value in one row of a table (found by fault injection: `.rows Post`
    /// with a 1 MB text in one row wrote the row's width again for every other row).
    @Test(arguments: [OutputMode.table, .box, .markdown])
    func aHugeValueDoesNotWidenEveryRow(mode: OutputMode) {
        let huge = String(repeating: "x", count: 100_000)
        let rows: [[Cell]] = (0..<200).map { [.text($0 == 3 || $0 == 600 ? huge : "row \($0)")] } + [[.text(huge)]]
        let text = write(mode, columns: ["color"], rows: rows)
        #expect(text.utf8.count < 2 * huge.utf8.count + 200 * 40, "\(text.utf8.count) bytes")
        let lines = text.split(separator: "\n")
        #expect(lines.filter { $0.contains(huge) }.count == 2, "the value is written whole, once per row it is in")
        let short = lines.filter { $0.contains("row 7 ") }
        #expect(short.count == 1 && short[0].count < 20, "\(short)")
    }

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

    @Test("JSON: booleans typed, bytes whole as 0x hex, infinities as the strings import reads, never null")
    func jsonWritesBooleansDataAndNonFiniteNumbersAsJSONCan() throws {
        let text = write(.jsonl, columns: ["flag", "blob", "ratio", "low"], rows: [[.value(.bool(true)), .value(.data(Data([1, 2, 3]))), .value(.double(.infinity)), .value(.double(-.infinity))]])
        #expect(text == #"{"flag":true,"blob":"0x010203","ratio":"inf","low":"-inf"}"# + "\n")
    }

    @Test("Dates print every fractional digit the stored double needs, the shortest that reads back")
    func datesAreExact() throws {
        let stored = 526_927_588.940283
        let rows: [[Cell]] = [[.value(.date(Date(timeIntervalSinceReferenceDate: stored)))], [.value(.date(Date(timeIntervalSinceReferenceDate: 0.5)))], [.value(.date(Date(timeIntervalSinceReferenceDate: -1.25)))]]
        for mode in [OutputMode.csv, .list, .line, .json, .table] {
            let text = write(mode, columns: ["d"], rows: rows)
            #expect(text.contains("2017-09-12T16:46:28.940283Z"), "\(mode): \(text)")
            #expect(text.contains("2001-01-01T00:00:00.5Z"), "\(mode): \(text)")
            #expect(text.contains("2000-12-31T23:59:58.75Z"), "\(mode): \(text)")
        }
        let read = try ISO8601DateText.date(from: "2017-09-12T16:46:28.940283Z")
        #expect(read.timeIntervalSinceReferenceDate == stored)
    }

    @Test("csv and json write dates digit by digit as the text of the date: in a zone, before 2001, quoted in csv only when the separator is in it")
    func datesWrittenAsBytes() throws {
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        let dates = [526_927_588.940283, -3_000_000_000.25, 0, 1e-5, 788_918_400.123456789].map { Date(timeIntervalSinceReferenceDate: $0) }
        let rows = dates.map { [Cell.value(.date($0))] }
        for zone in [TimeZone.gmt, paris] {
            let texts = dates.map { ISO8601DateText.string(from: $0, in: zone) }
            let json = write(.json, columns: ["d"], rows: rows) { $0.timeZone = zone }
            #expect(json == "[\n" + texts.map { "{\"d\":\"\($0)\"}" }.joined(separator: ",\n") + "\n]\n", "\(json)")
            let csv = write(.csv, columns: ["d"], rows: rows) { $0.timeZone = zone }
            #expect(csv == "d\n" + texts.map { $0 + "\n" }.joined(), "\(csv)")
            // A separator that the text holds quotes it, as any field.
            let colons = write(.csv, columns: ["d", "n"], rows: rows.map { $0 + [.value(.integer(1))] }) {
                $0.timeZone = zone
                $0.columnSeparator = ":"
            }
            #expect(colons == "d:n\n" + texts.map { "\"\($0)\":1\n" }.joined(), "\(colons)")
        }
    }

    @Test("Bytes are whole (0x hex) in every mode a program reads, summarised only in table and box")
    func bytesAreWholeInMachineModes() throws {
        let bytes = Data((0..<16).map { UInt8($0 * 17) })
        let hex = "0x00112233445566778899aabbccddeeff"
        for mode in OutputMode.allCases {
            let text = write(mode, columns: ["b"], rows: [[.value(.data(bytes))]])
            if mode == .table || mode == .box {
                #expect(text.contains("<16 bytes: 0011223344556677…>"), "\(mode): \(text)")
            } else {
                #expect(text.contains(hex), "\(mode): \(text)")
            }
        }
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

    /// sqlite3's list mode: `|` between values, no quoting; `.separator` changes it, for
    /// csv too.
    @Test func listModeAndSeparators() {
        #expect(write(.list, rows: books) { $0.nullText = "NULL" } == "title|price|added\nDune|9.5|2014-09-01T10:00:00Z\nEmma, a \"novel\"|12|NULL\n")
        #expect(write(.list, columns: ["a", "b"], rows: [[.text("x"), .text("y")]]) {
            $0.columnSeparator = ";"
            $0.rowSeparator = "\r\n"
            $0.headers = false
        } == "x;y\r\n")
        #expect(write(.csv, columns: ["a", "b"], rows: [[.text("x;1"), .text("y")]]) { $0.columnSeparator = ";" } == "a;b\n\"x;1\";y\n")
        var settings = OutputSettings()
        settings.columnSeparator = ";"
        settings.select(.list)
        #expect(settings.columnSeparator == nil, "choosing a mode puts the separator back, as in sqlite3")
    }

    @Test func htmlModeAsSQLite3WritesIt() {
        let text = write(.html, columns: ["a", "b"], rows: [[.text("<x & 'y'>"), .null]])
        #expect(text == "<TR><TH>a</TH>\n<TH>b</TH>\n</TR>\n<TR><TD>&lt;x &amp; &#39;y&#39;&gt;</TD>\n<TD></TD>\n</TR>\n")
    }

    /// `.width`: fixed widths, a longer value wrapped onto further lines as sqlite3 wraps it
    /// (it was cut with `…`, in files too); a negative width right-aligns.
    @Test func widthsFixColumns() {
        let text = write(.table, columns: ["id", "title"], rows: [[.value(.integer(7)), .text("The first book")]]) { $0.columnWidths = [-4, 6] }
        #expect(text == "+------+--------+\n|   id | title  |\n+------+--------+\n|    7 | The fi |\n|      | rst bo |\n|      | ok     |\n+------+--------+\n")
        #expect(FieldText.wrap("書籍です", to: 3) == ["書", "籍", "で", "す"])
        #expect(FieldText.wrap("", to: 3) == [""])
        // 0 and columns past the list take their values' width.
        #expect(write(.table, columns: ["a"], rows: [[.text("abc")]]) { $0.columnWidths = [0] } == "+-----+\n| a   |\n+-----+\n| abc |\n+-----+\n")
    }

    /// A table that goes to a pager is written whole, for `less -S` to scroll sideways; one
    /// that goes straight to the terminal is fitted to it.
    @Test func pagedTablesAreNotCut() {
        let long = String(repeating: "word ", count: 30)
        func table(paged: Bool) -> String {
            var settings = OutputSettings()
            settings.terminalWidth = 40
            var text = ""
            var asked: [Int] = []
            let writer = ResultWriter(settings: settings, isInterrupted: { false }, isPaged: { asked.append($0); return paged }, document: nil) { text += $0 }
            writer.begin(columns: ["id", "text"])
            writer.row([.value(.integer(1)), .text(long)])
            writer.end()
            // Borders, header and the row: the lines about to be written.
            #expect(asked == [5])
            #expect(writer.cutToFit == !paged)
            return text
        }
        #expect(table(paged: true).contains(long))
        #expect(!table(paged: false).contains(long))
    }

    /// psql's expanded display: a header line per record, one field per line.
    @Test func expandedRecords() {
        let text = write(.table, columns: ["id", "title"], rows: [[.value(.integer(1)), .text("Dune")], [.value(.integer(22)), .null]]) {
            $0.expanded = .on
            $0.nullText = "NULL"
        }
        #expect(text == "-[ RECORD 1 ]\nid    | 1\ntitle | Dune\n-[ RECORD 2 ]\nid    | 22\ntitle | NULL\n")
        let wide = "a_rather_long_column_name"
        let crossed = write(.box, columns: [wide], rows: [[.text("v")]]) { $0.expanded = .on }
        #expect(crossed == "─[ RECORD 1 ]─────────────┼──\n\(wide) │ v\n")
        // auto: only rows wider than the terminal; never without one.
        let long = String(repeating: "x", count: 100)
        #expect(write(.table, columns: ["t"], rows: [[.text(long)]]) { $0.expanded = .auto }.hasPrefix("+-"))
        #expect(write(.table, columns: ["t"], rows: [[.text(long)]]) {
            $0.expanded = .auto
            $0.terminalWidth = 80
        }.hasPrefix("-[ RECORD 1 ]"))
        #expect(write(.table, columns: ["t"], rows: [[.text("short")]]) {
            $0.expanded = .auto
            $0.terminalWidth = 80
        }.hasPrefix("+-"))
    }

    /// The 9,999-row bug: values wider than those measured (keys past 9999, objects past
    /// p999) widen their column from that row on, a border marking where, so every row
    /// lies within its borders.
    @Test(arguments: [OutputMode.table, .box]) func columnsWidenForLaterRows(mode: OutputMode) {
        let rows: [[Cell]] = (1...12_000).map { [.value(.integer(Int64($0))), .text("Book/p\($0)")] }
        let lines = write(mode, columns: ["Z_PK", "object"], rows: rows).split(separator: "\n").map(String.init)
        // The rows, the header, three borders, and one where p1000, then 10000, widened their columns.
        #expect(lines.count == 12_000 + 1 + 3 + 2)
        var border = lines[0]
        for line in lines {
            if !line.hasPrefix("|"), !line.hasPrefix("│") {
                border = line
                continue
            }
            #expect(DisplayWidth.of(line) == DisplayWidth.of(border), "\(line) under \(border)")
        }
        #expect(lines.contains { $0.hasPrefix("| 10000 | Book/p10000 |") || $0.hasPrefix("│ 10000 │ Book/p10000 │") })
        #expect(DisplayWidth.of(lines[lines.count - 1]) == DisplayWidth.of(lines[lines.count - 2]))
    }

    /// At a terminal, columns that cannot fit even at their narrowest are left out, a `…`
    /// column standing for them: no row is wider than the terminal.
    @Test func columnsThatCannotFitAreLeftOut() {
        let columns = (1...38).map { "column_\($0)" }
        let row: [Cell] = (1...38).map { .value(.integer(Int64($0))) }
        var settings = OutputSettings()
        settings.terminalWidth = 80
        var text = ""
        let writer = ResultWriter(settings: settings) { text += $0 }
        writer.begin(columns: columns)
        writer.row(row)
        writer.end()
        for line in text.split(separator: "\n") { #expect(DisplayWidth.of(String(line)) <= 80, "\(line)") }
        #expect(text.contains("| … |"))
        #expect(writer.cutToFit)
        let layout = ColumnLayout.make(natural: Array(repeating: 9, count: 38), fixed: Array(repeating: nil, count: 38), rightAligned: Array(repeating: false, count: 38), available: 80)
        #expect(layout.hiddenColumns == 38 - layout.widths.count && layout.hiddenColumns > 0)
        #expect(layout.widths.reduce(0, +) + ColumnLayout.overhead(columns: layout.widths.count + 1) + 1 <= 80)
    }

    /// Rows leave the writer as they arrive, in pieces of at most ``OutputBytes/capacity``
    /// bytes: a result is never gathered whole in memory.
    @Test(arguments: OutputMode.allCases) func resultsStream(mode: OutputMode) {
        var settings = OutputSettings()
        settings.mode = mode
        var written = ""
        var pieces: [Int] = []
        let writer = ResultWriter(settings: settings) {
            written += $0
            pieces.append($0.utf8.count)
        }
        writer.begin(columns: ["n"])
        // Far more rows than the aligned modes measure, and far more bytes than one piece.
        let total = 40_000
        for i in 0..<total { writer.row([.value(.integer(Int64(i + 100_000)))]) }
        // Before end(): the first half of the rows is out, whatever the mode.
        #expect(written.contains("\(total / 2 + 100_000)"), "\(mode) held its rows back")
        #expect(pieces.allSatisfy { $0 < OutputBytes.capacity + 1_024 }, "\(mode) wrote a piece of \(pieces.max() ?? 0) bytes")
        writer.end()
        #expect(written.contains("\(total - 1 + 100_000)"))
    }

    /// A writer stopped part-way (the command failed, or Ctrl-C) hands on the rows it has.
    @Test(arguments: [OutputMode.csv, .json, .list]) func flushShowsTheRowsWrittenSoFar(mode: OutputMode) {
        var settings = OutputSettings()
        settings.mode = mode
        var written = ""
        let writer = ResultWriter(settings: settings) { written += $0 }
        writer.begin(columns: ["n"])
        writer.row([.value(.integer(41))])
        writer.row([.text("forty-two")])
        #expect(written.isEmpty, "a piece is handed on only when full")
        writer.flush()
        #expect(written.contains("41") && written.contains("forty-two"))
    }

    /// Numbers and text written from their bytes read as the strings they stand for.
    @Test func bytesAreTheStringsTheyStandFor() {
        var bytes = OutputBytes()
        for value: Int64 in [0, 7, -7, 10, 1_000_000, .max, .min] { bytes.append(integer: value); bytes.append(byte: 0x20) }
        #expect(bytes.take() == "0 7 -7 10 1000000 9223372036854775807 -9223372036854775808 ")
        let texts = ["plain", "é ok", "a\"b", "back\\slash", "line\nbreak\r\t", "\u{1}\u{7F}", ""]
        for text in texts {
            bytes.append(jsonString: text)
            #expect(bytes.take() == JSONText.string(text), "\(text.debugDescription)")
            bytes.append(csvField: text, separator: ",")
            #expect(bytes.take() == FieldText.csv(text), "\(text.debugDescription)")
        }
        bytes.append(csvInteger: -5, separator: "-")
        #expect(bytes.take() == "\"-5\"")
    }
}
