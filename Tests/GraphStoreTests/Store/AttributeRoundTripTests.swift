import Foundation
import Testing
@testable import GraphStore

/// Every attribute type goes to the store and comes back exactly.
@Suite struct AttributeRoundTripTests {
    static let date = Date(timeIntervalSinceReferenceDate: 433_000_123.25)
    static let uuid = UUID(uuidString: "6EB956E1-E464-49EE-84CB-435A6A51E7EC") ?? UUID()

    static let values: [(String, AttributeValue)] = [
        ("int16", .integer(-32768)),
        ("int32", .integer(2_147_483_647)),
        ("int64", .integer(Int64.min)),
        ("decimal", .decimal(Decimal(string: "1234.5") ?? 0)),
        ("double", .double(3.141592653589793)),
        ("float", .double(Double(Float(2.5)))),
        ("string", .string("Ünïcødé \"quoted\" ✓")),
        ("boolean", .bool(true)),
        ("date", .date(date)),
        ("binary", .data(Data([0, 1, 2, 255, 0]))),
        ("uuid", .uuid(uuid)),
        ("uri", .uri(URL(string: "https://example.com/a?b=c#d") ?? URL(fileURLWithPath: "/"))),
        ("transformable", .data(Data("bplist00".utf8))),
    ]

    @Test func everyTypeRoundTripsThroughTheStore() throws {
        let path = try Fixtures.newStorePath()
        let model = try Fixtures.layoutModel()
        do {
            let context = ManagedObjectContext(store: try PersistentStore.create(at: path, model: model))
            let object = try context.insert("feedback")
            for (key, value) in Self.values { try object.setValue(value, forKey: key) }
            try context.save()
        }
        let context = ManagedObjectContext(store: try PersistentStore(path: path, model: model))
        let object = try #require(try context.fetch("feedback").first)
        for (key, value) in Self.values {
            #expect(try object.value(forKey: key) == value, "\(key)")
        }
    }

    /// Text is bound with its length: a NUL inside a string, empty strings, and long
    /// (heap-allocated) strings come back whole, and a string bound as a fetch argument
    /// matches them.
    @Test func stringsWithNULAndEmptyStringsRoundTrip() throws {
        let path = try Fixtures.newStorePath()
        let model = try Fixtures.layoutModel()
        let strings = ["a\u{0}b", "", "\u{0}", String(repeating: "long text ✓ ", count: 20)]
        do {
            let context = ManagedObjectContext(store: try PersistentStore.create(at: path, model: model))
            for text in strings { try context.insert("feedback").setValue(.string(text), forKey: "string") }
            try context.save()
        }
        let store = try PersistentStore(path: path, model: model)
        let read = try ManagedObjectContext(store: store).fetch("feedback").map { try $0.value(forKey: "string") }
        #expect(read == strings.map { .string($0) })
        let connection = try Connection(path: path, mode: .readOnly)
        #expect(try connection.rows("SELECT length(CAST(ZSTRING AS BLOB)) FROM ZFEEDBACK ORDER BY Z_PK").map { $0[0] } == [.integer(3), .integer(0), .integer(1), .integer(Int64(strings[3].utf8.count))])
        let request = FetchRequest(entityName: "feedback", predicate: try ObjectPredicate(format: "string == %@", "a\u{0}b"))
        #expect(try ManagedObjectContext(store: store).fetch(request).count == 1)
    }

    @Test func storageClassesAreCoreData() throws {
        let path = try Fixtures.newStorePath()
        let model = try Fixtures.layoutModel()
        let context = ManagedObjectContext(store: try PersistentStore.create(at: path, model: model))
        let object = try context.insert("feedback")
        for (key, value) in Self.values { try object.setValue(value, forKey: key) }
        try context.save()
        let connection = try Connection(path: path, mode: .readOnly)
        let row = try #require(try connection.rows("SELECT typeof(ZDATE), ZDATE, typeof(ZUUID), length(ZUUID), typeof(ZBOOLEAN), ZBOOLEAN, typeof(ZURI), typeof(ZDECIMAL), hex(ZUUID) FROM ZFEEDBACK").first)
        #expect(row[0] == .text("real"))
        #expect(row[1] == .real(433_000_123.25))
        #expect(row[2] == .text("blob"))
        #expect(row[3] == .integer(16))
        #expect(row[4] == .text("integer"))
        #expect(row[5] == .integer(1))
        #expect(row[6] == .text("text"))
        #expect(row[7] == .text("real"))
        #expect(row[8] == .text("6EB956E1E46449EE84CB435A6A51E7EC"))
    }

    @Test func malformedStoredValuesAreReportedNotCrashedOn() throws {
        let path = try Fixtures.newStorePath()
        let model = try Fixtures.layoutModel()
        let store = try PersistentStore.create(at: path, model: model)
        let context = ManagedObjectContext(store: store)
        _ = try context.insert("feedback")
        try context.save()
        let raw = try Connection(path: path, mode: .readWrite)
        try raw.execute("UPDATE ZFEEDBACK SET ZINT32 = 'abc', ZUUID = x'0102'")
        let reader = try PersistentStore(path: path, model: model)
        var problems: [StoreError] = []
        try reader.forEachRow(of: try reader.mapping(for: "feedback")) { problems += $0.problems }
        #expect(problems.count == 2)
        #expect(problems.map(\.description).contains { $0.contains("int32 (column ZINT32) holds text \"abc\", which cannot be read as Integer 32") })
        // The fetch reads the object; the value is an error only when it is asked for.
        let fresh = ManagedObjectContext(store: reader)
        let object = try #require(try fresh.fetch("feedback").first)
        #expect(throws: StoreError.malformedValue(entity: "feedback", primaryKey: 1, key: "int32", column: "ZINT32", found: "text \"abc\"", expected: "Integer 32")) {
            try object.value(forKey: "int32")
        }
        #expect(try object.value(forKey: "int16") == nil)
    }

    @Test func valuesOfTheWrongTypeAreRefusedWhenSet() throws {
        let context = ManagedObjectContext(store: try PersistentStore.create(at: try Fixtures.newStorePath(), model: try Fixtures.layoutModel()))
        let object = try context.insert("feedback")
        #expect(throws: StoreError.typeMismatch(entity: "feedback", key: "int16", expected: .integer16, found: "40000")) {
            try object.setValue(.integer(40000), forKey: "int16")
        }
        #expect(throws: StoreError.self) { try object.setValue(.string("x"), forKey: "date") }
        #expect(throws: StoreError.unknownKey(entity: "feedback", key: "nope")) { try object.setValue(.integer(1), forKey: "nope") }
    }
}
