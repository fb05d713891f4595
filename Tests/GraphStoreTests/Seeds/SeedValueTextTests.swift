import Foundation
import Testing
import TestScratch

@testable import GraphStore

/// Seed text is exact both ways: what a value prints as reads back to the same stored value,
/// and text that would be stored as another value is refused with the field and why.
@Suite struct SeedValueTextTests {
    static func attribute(_ type: AttributeType) -> AttributeDescription { AttributeDescription("v", type) }

    static func reason(_ text: String, _ type: AttributeType) -> String? {
        do {
            _ = try SeedValueText.parse(text, as: attribute(type))
            return nil
        } catch {
            return error.description
        }
    }

    @Test("A date prints with the digits its double needs, and reads back to the same double")
    func datesRoundTripExactly() throws {
        let stored: [Double] = [526_927_588.940283, 0, 0.5, -1.25, 1e-5, -978_307_200.000001, 123.456789012345, 63_000_000_000.1, -0.0001]
        for seconds in stored {
            let text = SeedValueText.format(.date(Date(timeIntervalSinceReferenceDate: seconds)))
            let back = try SeedValueText.parse(text, as: Self.attribute(.date))
            #expect(back.dateValue?.timeIntervalSinceReferenceDate == seconds, "\(seconds) printed as \(text)")
        }
        #expect(SeedValueText.format(.date(Date(timeIntervalSinceReferenceDate: 526_927_588.940283))) == "2017-09-12T16:46:28.940283Z")
        #expect(SeedValueText.format(.date(Date(timeIntervalSinceReferenceDate: 0.5))) == "2001-01-01T00:00:00.5Z")
        #expect(SeedValueText.format(.date(Date(timeIntervalSinceReferenceDate: -1.25))) == "2000-12-31T23:59:58.75Z")
        #expect(SeedValueText.format(.date(Date(timeIntervalSinceReferenceDate: 0))) == "2001-01-01T00:00:00Z")
        // A random sample of fractional dates over two centuries, each exact.
        var generator = SeededGenerator(state: 7)
        for _ in 0..<2000 {
            let seconds = Double.random(in: -3e9...3e9, using: &generator)
            let text = SeedValueText.format(.date(Date(timeIntervalSinceReferenceDate: seconds)))
            #expect(try ISO8601DateText.date(from: text).timeIntervalSinceReferenceDate == seconds, "\(seconds) printed as \(text)")
        }
    }

    @Test("A date as it prints, typed in a predicate, matches its object (SQL and in memory)")
    func aPrintedDateMatchesItsObject() throws {
        let model = try ManagedObjectModel {
            EntityDescription("Entry") {
                AttributeDescription("date", .date)
                AttributeDescription("ratio", .float)
                AttributeDescription("weight", .double)
            }
        }
        let store = try PersistentStore.create(at: try Fixtures.newStorePath(), model: model)
        let context = ManagedObjectContext(store: store)
        let stored = [526_927_588.940283, 526_927_588.9402831, -1.25]
        for seconds in stored {
            try context.insert("Entry").setValue(.date(Date(timeIntervalSinceReferenceDate: seconds)), forKey: "date")
        }
        try context.save()
        let fresh = ManagedObjectContext(store: store)
        for seconds in stored {
            let text = SeedValueText.format(.date(Date(timeIntervalSinceReferenceDate: seconds)))
            let predicate = try ObjectPredicate(format: "date == '\(text)'").readingDateStrings(entity: "Entry", in: model)
            #expect(try fresh.count(for: FetchRequest(entityName: "Entry", predicate: predicate)) == 1, "\(text)")
            #expect(try fresh.fetch("Entry").filter { try predicate.evaluate(with: $0) }.count == 1, "\(text)")
        }
        // A value that would be stored as another is refused where it is set.
        let entry = try context.insert("Entry")
        #expect(throws: StoreError.self) { try entry.setValue(.double(1e39), forKey: "ratio") }
        #expect(throws: StoreError.self) { try entry.setValue(.double(.nan), forKey: "weight") }
        try entry.setValue(.double(.infinity), forKey: "ratio")
        try entry.setValue(.double(-.infinity), forKey: "weight")
        try context.save()
        let back = try #require(try ManagedObjectContext(store: store).fetch("Entry").first { try $0.value(forKey: "ratio") != nil })
        #expect(try back.value(forKey: "ratio") == .double(.infinity))
        #expect(try back.value(forKey: "weight") == .double(-.infinity))
    }

    @Test("A date out of its calendar is refused with the field and why, never carried into the next")
    func impossibleDatesAreRefused() {
        #expect(Self.reason("2024-02-30", .date) == "v: \"2024-02-30\" is not a date: day 30 is not 01–29 (2024-02 has 29 days)")
        #expect(Self.reason("2023-02-29", .date)?.contains("2023-02 has 28 days") == true)
        #expect(Self.reason("2024-02-31T25:61:61Z", .date)?.contains("day 31 is not 01–29") == true)
        #expect(Self.reason("2024-02-01T25:00:00Z", .date)?.contains("hour 25 is not 00–23") == true)
        #expect(Self.reason("2024-02-01T10:61:00Z", .date)?.contains("minute 61 is not 00–59") == true)
        #expect(Self.reason("2024-02-01T10:00:61Z", .date)?.contains("second 61 is not 00–59") == true)
        #expect(Self.reason("2024-02-01T23:59:60Z", .date)?.contains("leap second") == true)
        #expect(Self.reason("2024-13-01", .date)?.contains("month 13 is not 01–12") == true)
        #expect(Self.reason("2024-02-29", .date) == nil)
        #expect(Self.reason("soon", .date)?.contains("2020-01-01T10:30:00Z") == true)
    }

    @Test("Floats: out of range refused, infinities spelled inf read back, NaN refused (SQLite stores it as NULL)")
    func floatsAreStrict() throws {
        #expect(Self.reason("1e39", .float) == "v: \"1e39\" is not a number within ±\(Float.greatestFiniteMagnitude) (the range of Float)")
        #expect(Self.reason("1e400", .double)?.contains("the range of Double") == true)
        #expect(Self.reason("nan", .double)?.contains("NaN as NULL") == true)
        #expect(try SeedValueText.parse("inf", as: Self.attribute(.float)) == .double(.infinity))
        #expect(try SeedValueText.parse("-inf", as: Self.attribute(.double)) == .double(-.infinity))
        #expect(SeedValueText.format(.double(.infinity)) == "inf")
        #expect(SeedValueText.format(.double(-0.0)) == "-0")
        #expect(try SeedValueText.parse("-0", as: Self.attribute(.double)).doubleValue?.sign == .minus)
        #expect(try SeedValueText.parse("3.4028234e38", as: Self.attribute(.float)) == .double(3.4028234e38))
    }

    @Test("An integer beyond its type says out of range, with the type's range")
    func integersOutOfRange() {
        #expect(Self.reason("99999999999999999999", .integer64) == "v: \"99999999999999999999\" is not within -9223372036854775808…9223372036854775807 (the range of Integer 64)")
        #expect(Self.reason("40000", .integer16) == "v: \"40000\" is not within -32768…32767 (the range of Integer 16)")
        #expect(Self.reason("3000000000", .integer32)?.contains("(the range of Integer 32)") == true)
        #expect(Self.reason("1.5", .integer32) == "v: \"1.5\" is not a whole number")
    }

    @Test("Bytes print whole as 0x hex and read back; decimals print the stored double's shortest digits")
    func bytesAndDecimals() throws {
        let bytes = Data((0..<300).map { UInt8($0 % 256) })
        let text = SeedValueText.format(.data(bytes))
        #expect(text.count == 2 + 600)
        #expect(try SeedValueText.parse(text, as: Self.attribute(.binaryData)) == .data(bytes))
        #expect(try SeedValueText.parse(text, as: Self.attribute(.transformable)) == .data(bytes))
        #expect(SeedValueText.format(.decimal(AttributeValue.decimal(stored: 3.3333333332999993))) == "3.3333333332999993")
        #expect(AttributeValue.storedDouble(try #require(Decimal(string: "3.3333333332999993"))) == 3.3333333332999993)
        #expect(Self.reason("1.5abc", .decimal) == "v: \"1.5abc\" is not a decimal number")
    }

    @Test("CSV: a header naming a property twice is refused; CR-only line ends are lines")
    func csvStrictness() throws {
        let model = try Fixtures.bookStoreModel()
        #expect {
            try SeedFile.readCSV("title,price,title\nA,1,B\n", file: "books.csv", entity: "Book", model: model)
        } throws: { "\($0)" == "books.csv:1: the header names title twice (columns 1 and 3); each column must name a different property" }
        let records = try SeedFile.readCSV("title,price\rA,15\rB,16\r", file: "books.csv", entity: "Book", model: model)
        #expect(records.map(\.line) == [2, 3])
        #expect(records.last?.fields.map(\.value) == [.text("B"), .text("16")])
        let mixed = try SeedFile.readCSV("title,price\r\n\"A\rB\",15\nC,16\r", file: "books.csv", entity: "Book", model: model)
        #expect(mixed.map(\.line) == [2, 4])
        #expect(mixed.first?.fields.first?.value == .text("A\rB"))
    }

    @Test("JSON that does not parse names its line and column")
    func jsonErrorsHaveAPlace() throws {
        let model = try Fixtures.bookStoreModel()
        let keys = try NaturalKeys(parsing: [], model: model)
        #expect {
            try SeedFile.readJSON("[\n {\"title\": \"A\"},\n {\"title\": x}\n]", file: "books.json", keys: keys, entity: "Book", model: model)
        } throws: { "\($0)".hasPrefix("books.json:3:12: not JSON") }
        #expect {
            try SeedFile.readJSON("[\n {\"title\": \"A\"}", file: "books.json", keys: keys, entity: "Book", model: model)
        } throws: { "\($0)".hasPrefix("books.json:2:16: not JSON") }
    }
}
