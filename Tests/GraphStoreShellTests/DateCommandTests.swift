import Foundation
import GraphStore
import Testing

@testable import GraphStoreShell
import TestScratch

/// Dates in the REPL: typed as ISO 8601 strings, read and printed in the `.tz` zone.
@Suite("REPL dates and .tz")
struct DateCommandTests {
    let shell: CapturedShell

    init() throws {
        let directory = try ScratchDirectory.make("graphstore-dates")
        let path = directory.appendingPathComponent("journal.sqlite").path
        let model = try ManagedObjectModel {
            EntityDescription("Entry") {
                AttributeDescription("title", .string)
                AttributeDescription("date", .date)
            }
        }
        let store = try PersistentStore.create(at: path, model: model)
        let context = ManagedObjectContext(store: store)
        for (title, date) in [("new year", "2010-01-01T00:00:00Z"), ("noon", "2010-06-01T12:00:00Z"), ("late", "2010-06-01T23:30:00.5Z")] {
            let entry = try context.insert("Entry")
            try entry.set("title", title)
            try entry.set("date", try ISO8601DateText.date(from: date))
        }
        try context.save()
        try store.checkpoint()
        shell = try CapturedShell(store: path)
    }

    @Test func stringsComparedWithDatesAreISO8601InTheZoneSet() throws {
        #expect(try shell.run(lines: ".mode csv", "fetch Entry select title where date > '2010-01-01' sort date") == "title\nnoon\nlate\n")
        #expect(try shell.run(lines: "fetch Entry select title where date BETWEEN {'2010-06-01', '2010-06-01T23:59'} AND date != '2010-06-01T14:00+02:00'") == "title\nlate\n")
        #expect(try shell.run(lines: "fetch Entry select title where date < now() AND date IN {'2010-01-01T01:00+01:00'}") == "title\nnew year\n")
        // In Paris (UTC+2 in June), 2010-06-02 begins at 2010-06-01T22:00Z.
        #expect(try shell.run(lines: ".tz Europe/Paris", "fetch Entry select title where date >= '2010-06-02'") == "title\nlate\n")
    }

    @Test func havingReadsDatesInTheZoneSet() throws {
        #expect(try shell.run(lines: ".mode csv", ".tz +02:00", "fetch Entry select title, max(date) group by title having max(date) > '2010-06-01T14:00' sort title") == "title,max(date)\nlate,2010-06-02T01:30:00.5+02:00\n")
        #expect(try shell.run(lines: "fetch Entry select date group by date having date < '2010-01-01T02:00:01' sort date") == "date\n2010-01-01T02:00:00+02:00\n")
    }

    @Test func datesPrintInTheZoneInEveryMode() throws {
        #expect(try shell.run(lines: ".mode csv", "fetch Entry select date sort date limit 1") == "date\n2010-01-01T00:00:00Z\n")
        #expect(try shell.run(lines: ".tz +02:00", ".mode json", "fetch Entry select date, title sort date desc limit 1") == """
            [
            {"date":"2010-06-02T01:30:00.5+02:00","title":"late"}
            ]

            """)
        #expect(try shell.run(lines: ".mode line", "fetch Entry select max(date)") == "max(date) = 2010-06-02T01:30:00.5+02:00\n")
        #expect(try shell.run(lines: ".tz") == "tz is +02:00\n")
        #expect(try shell.run(lines: ".mode csv", ".settings").contains("tz,+02:00\n"))
        #expect(try shell.run(lines: ".tz UTC", ".tz") == "tz is UTC\n")
    }

    @Test func malformedDatesAndZonesNameWhatWasTyped() throws {
        #expect(shell.failure(of: "fetch Entry where date > '2010-1-1'") == "fetch: \"2010-1-1\" is not a date: expected \(ISO8601DateText.expectedFormat)")
        #expect(shell.failure(of: ".tz Mars/Olympus") == ".tz: unknown time zone Mars/Olympus (UTC, local, an IANA name such as Europe/Paris, or an offset such as +02:00)")
    }
}
