import Foundation
import Testing

@testable import GraphStore

/// Dates as people write them: ISO 8601 strings compared with Date attributes, CAST of an
/// ISO string, now(); SQL and in-memory evaluation agree on each vector.
@Suite("Date literals: ISO 8601 strings against Date attributes")
struct DateLiteralTests {
    static func utc(_ text: String) throws -> Date { try ISO8601DateText.date(from: text) }

    @Test("ISO 8601 dates, date-times, Z and offsets; a text without a zone is in the zone given")
    func reading() throws {
        let noon = Date(timeIntervalSince1970: 1_262_347_200)   // 2010-01-01T12:00:00Z
        #expect(try ISO8601DateText.date(from: "2010-01-01T12:00:00Z") == noon)
        #expect(try ISO8601DateText.date(from: "2010-01-01T12:00Z") == noon)
        #expect(try ISO8601DateText.date(from: "2010-01-01 12:00") == noon)
        #expect(try ISO8601DateText.date(from: "2010-01-01T14:00:00+02:00") == noon)
        #expect(try ISO8601DateText.date(from: "2010-01-01T06:30-0530") == noon)
        #expect(try ISO8601DateText.date(from: "2010-01-01T12:00:00.5Z") == noon.addingTimeInterval(0.5))
        #expect(try ISO8601DateText.date(from: "2010-01-01") == noon.addingTimeInterval(-12 * 3600))
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        #expect(try ISO8601DateText.date(from: "2010-01-01T13:00", in: paris) == noon)
        #expect(try ISO8601DateText.date(from: "2010-01-01T12:00Z", in: paris) == noon)
        #expect(ISO8601DateText.string(from: noon) == "2010-01-01T12:00:00Z")
        #expect(ISO8601DateText.string(from: noon, in: paris) == "2010-01-01T13:00:00+01:00")
        for bad in ["2010-1-1", "yesterday", "2010-01-01T12:00+2", "2010-01-01Z1"] {
            #expect(throws: DateTextError(text: bad)) { try ISO8601DateText.date(from: bad) }
        }
        // A field out of range is named, never carried into the next field.
        let outOfRange = [
            ("2010-13-01", "month 13 is not 01–12"), ("2010-02-30", "day 30 is not 01–28 (2010-02 has 28 days)"),
            ("2010-01-01T25:00", "hour 25 is not 00–23"), ("2010-01-01T12:00+24:00", "the zone offset is not within ±23:59"),
        ]
        for (bad, reason) in outOfRange {
            #expect(throws: DateTextError(text: bad, reason: reason)) { try ISO8601DateText.date(from: bad) }
        }
        #expect("\(DateTextError(text: "2010-02-30", reason: "day 30 is not 01–28 (2010-02 has 28 days)"))" == "\"2010-02-30\" is not a date: day 30 is not 01–28 (2010-02 has 28 days)")
        #expect("\(DateTextError(text: "2010-1-1"))" == "\"2010-1-1\" is not a date: expected \(ISO8601DateText.expectedFormat)")
    }

    @Test("CAST of an ISO 8601 string to NSDate is a date constant")
    func cast() throws {
        let cast = try ObjectPredicate(format: "born == CAST('2010-01-01T12:00:00Z', 'NSDate')")
        #expect(cast.predicateFormat == "born == CAST(284040000.000000, \"NSDate\")")
        #expect(try cast.evaluate(with: ["born": .date(Date(timeIntervalSince1970: 1_262_347_200))]))
    }

    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Entry") {
                AttributeDescription("title", .string)
                AttributeDescription("date", .date)
                RelationshipDescription("notes", to: "Note", inverse: "entry", toMany: true)
            }
            EntityDescription("Note") {
                AttributeDescription("written", .date)
                RelationshipDescription("entry", to: "Entry", inverse: "notes")
            }
        }
    }

    /// Each vector: a predicate with date strings, and the titles it matches (sorted).
    static let vectors: [(String, [String])] = [
        ("date > '2010-01-01'", ["b", "c", "d"]),
        ("date >= '2010-01-01T00:00:00Z'", ["a", "b", "c", "d"]),
        ("date == '2010-01-01'", ["a"]),
        ("date != '2010-01-01'", ["b", "c", "d", "e"]),
        ("date < '2010-06-01T12:00+02:00'", ["a", "b"]),
        ("date <= '2010-06-01T10:00:00Z'", ["a", "b", "c"]),
        ("'2010-06-01T10:00Z' < date", ["d"]),
        ("date BETWEEN {'2010-01-01', '2010-06-01T10:00Z'}", ["a", "b", "c"]),
        ("date IN {'2010-01-01', '2011-01-01T00:00:00+00:00'}", ["a", "d"]),
        ("ANY notes.written > '2010-03-01'", ["b"]),
        ("notes.@count > 0 AND date > '2009-12-31T23:59:59Z'", ["a", "b"]),
        ("date < now()", ["a", "b", "c", "d"]),
        ("date > CAST('2010-05-31T00:00:00Z', 'NSDate')", ["c", "d"]),
        ("title == '2010-01-01'", []),
        ("NOT (date > '2010-02-01') OR date == nil", ["a", "e"]),
    ]

    /// Five entries (a to e; e has no date), two notes.
    static func journal() throws -> (PersistentStore, ManagedObjectModel) {
        let model = try Self.model()
        let store = try PersistentStore.create(at: try Fixtures.newStorePath(), model: model)
        let context = ManagedObjectContext(store: store)
        let rows: [(String, String?, [String])] = [
            ("a", "2010-01-01T00:00:00Z", ["2010-01-02T00:00:00Z"]), ("b", "2010-02-01T08:00:00Z", ["2010-04-01T00:00:00Z"]),
            ("c", "2010-06-01T10:00:00Z", []), ("d", "2011-01-01T00:00:00Z", []), ("e", nil, []),
        ]
        for (title, date, notes) in rows {
            let entry = try context.insert("Entry")
            try entry.set("title", title)
            try entry.set("date", try date.map(Self.utc))
            for written in notes {
                let note = try context.insert("Note")
                try note.set("written", try Self.utc(written))
                try note.setObject(entry, forKey: "entry")
            }
        }
        try context.save()
        return (store, model)
    }

    @Test("date vectors: SQL and in-memory evaluation agree, and match the expected objects")
    func vectorsAgree() throws {
        let (store, model) = try Self.journal()
        let fresh = ManagedObjectContext(store: store)
        let all = try fresh.fetch("Entry")
        for (format, expected) in Self.vectors {
            let predicate = try ObjectPredicate(format: format).readingDateStrings(entity: "Entry", in: model)
            let sql = try fresh.fetch(FetchRequest(entityName: "Entry", predicate: predicate)).map { try $0.get("title", as: String.self) ?? "" }.sorted()
            let memory = try all.filter { try predicate.evaluate(with: $0) }.map { try $0.get("title", as: String.self) ?? "" }.sorted()
            #expect(sql == memory, "\(format): SQL \(sql), memory \(memory)")
            #expect(sql == expected, "\(format)")
        }
    }

    @Test("a having predicate reads strings compared with date entries as dates")
    func having() throws {
        let (store, _) = try Self.journal()
        let context = ManagedObjectContext(store: store)
        var request = FetchRequest(entityName: "Entry", sortKeys: [SortKey("title")])
        request.propertiesToFetch = ["title", .expression(ExpressionDescription(name: "latest", function: .max, keyPath: "date"))]
        request.propertiesToGroupBy = ["title"]
        request.havingPredicate = try ObjectPredicate(format: "latest >= '2010-06-01T10:00:00Z'")
        #expect(try context.fetchDictionaries(request).map { $0["title"]?.description } == ["c", "d"])
        #expect(try context.groupedInMemory(request).map { $0["title"]?.description } == ["c", "d"])
        request.havingPredicate = try ObjectPredicate(format: "latest > 'soon'")
        #expect(throws: DateTextError(text: "soon")) { try context.fetchDictionaries(request) }
    }

    @Test("a malformed date names the literal and the format expected")
    func malformed() throws {
        let model = try Self.model()
        #expect(throws: DateTextError(text: "2010-1-1")) {
            try ObjectPredicate(format: "title == 'x' OR date > '2010-1-1'").readingDateStrings(entity: "Entry", in: model)
        }
        // A string compared with a string attribute is not a date.
        #expect(throws: Never.self) { try ObjectPredicate(format: "title == 'soon'").readingDateStrings(entity: "Entry", in: model) }
    }
}
