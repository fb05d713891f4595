import Foundation
import Testing
@testable import GraphStore

/// Stores made the ways people make seeds by hand — a table rebuilt without column types
/// (a CSV import), keys, numbers and dates stored as text, text in Binary columns, `Z_MAX`
/// left at 0 — read value by value as SQLite's own conversions read them (``SQLValueRules``),
/// counted the same by every path, and written to without losing a key.
@Suite struct HandMadeStoreTests {
    /// The columns of ZFEEDBACK, in the order the rebuilt table declares them.
    static let columns = [
        "Z_PK", "Z_ENT", "Z_OPT", "ZINT16", "ZINT32", "ZINT64", "ZDECIMAL", "ZDOUBLE", "ZFLOAT", "ZSTRING", "ZBOOLEAN", "ZDATE",
        "ZBINARY", "ZUUID", "ZURI", "ZTRANSFORMABLE",
    ]

    /// Three feedback rows written by GraphStore, then the table rebuilt with no column
    /// types and every value cast to text, and a few hand-typed values on top.
    private func handMadeStore() throws -> (String, ManagedObjectModel) {
        let path = try Fixtures.newStorePath()
        let model = try Fixtures.layoutModel()
        let context = ManagedObjectContext(store: try PersistentStore.create(at: path, model: model))
        for n in 1...3 {
            let object = try context.insert("feedback")
            for (key, value) in AttributeRoundTripTests.values where key != "int64" { try object.setValue(value, forKey: key) }
            try object.setValue(.integer(Int64(n) * 1000), forKey: "int64")
        }
        try context.save()
        let raw = try Connection(path: path, mode: .readWrite)
        let list = Self.columns.joined(separator: ", ")
        let casts = Self.columns.map { ["ZBINARY", "ZUUID", "ZTRANSFORMABLE"].contains($0) ? $0 : "CAST(\($0) AS TEXT)" }.joined(separator: ", ")
        try raw.executeScript("""
            CREATE TABLE ZF2 (\(list));
            INSERT INTO ZF2 SELECT \(casts) FROM ZFEEDBACK;
            DROP TABLE ZFEEDBACK; ALTER TABLE ZF2 RENAME TO ZFEEDBACK;
            UPDATE Z_PRIMARYKEY SET Z_MAX = 0;
            UPDATE ZFEEDBACK SET ZDOUBLE = ' 10.0 ', ZINT32 = '1e3', ZDATE = '0', ZBINARY = 'typed as text',
                ZUUID = '6EB956E1-E464-49EE-84CB-435A6A51E7EC' WHERE Z_PK = '2';
            UPDATE ZFEEDBACK SET ZINT16 = '2.5', ZDATE = 'yesterday', ZBOOLEAN = 'yes', ZDECIMAL = '0.1' WHERE Z_PK = '3';
            """)
        return (path, model)
    }

    @Test func everyValueReadsAsSQLiteConvertsIt() throws {
        let (path, model) = try handMadeStore()
        let store = try PersistentStore(path: path, model: model)
        let mapping = try store.mapping(for: "feedback")
        let objects = try ManagedObjectContext(store: store).fetch("feedback")
        #expect(objects.map { $0.objectID.primaryKey } == [1, 2, 3])
        let raw = try Connection(path: path, mode: .readOnly)
        var (compared, unreadable) = (0, 0)
        for object in objects {
            let stored = mapping.attributes.filter { $0.column != nil }
            let list = stored.flatMap { SQLValueRules.selectList($0.column ?? "") }
            let row = try #require(try raw.rows("SELECT \(list.joined(separator: ", ")) FROM ZFEEDBACK WHERE Z_PK = ?", [.text("\(object.objectID.primaryKey ?? 0)")]).first)
            for (n, attribute) in stored.enumerated() {
                let key = attribute.attribute.name
                compared += 1
                switch SQLValueRules.expected(row[(n * SQLValueRules.width)..<((n + 1) * SQLValueRules.width)], type: attribute.attribute.type, external: false) {
                case .value(let expected):
                    #expect(try object.value(forKey: key) == expected, "\(object.objectID).\(key)")
                case .unreadable:
                    unreadable += 1
                    #expect(throws: StoreError.self, "\(object.objectID).\(key)") { try object.value(forKey: key) }
                case .external:
                    Issue.record("no external storage here")
                }
            }
        }
        #expect(compared == 39)
        // '1e3' read as an integer (1 by sqlite3_column_int64), '2.5' as Integer 16,
        // 'yesterday' as a Date, 'yes' as a Boolean: not what they say, so unreadable.
        #expect(unreadable == 4)
        let second = objects[1]
        #expect(try second.value(forKey: "double") == .double(10))
        #expect(try second.value(forKey: "date") == .date(Date(timeIntervalSinceReferenceDate: 0)))
        #expect(try second.value(forKey: "binary") == .data(Data("typed as text".utf8)))
        #expect(try objects[2].value(forKey: "decimal") == .decimal(Decimal(string: "0.1") ?? 0))
        #expect(throws: StoreError.malformedValue(entity: "feedback", primaryKey: 3, key: "date", column: "ZDATE", found: "text \"yesterday\"", expected: "Date")) {
            try objects[2].value(forKey: "date")
        }
    }

    /// Streamed rows reuse one row's arrays from row to row: each must read as that row
    /// alone does, unreadable values and problems included, none left from the row before.
    @Test func streamedRowsReadAsEachRowAlone() throws {
        let (path, model) = try handMadeStore()
        let store = try PersistentStore(path: path, model: model)
        let mapping = try store.mapping(for: "feedback")
        var streamed = 0
        var withProblems = 0
        try store.forEachRow(of: mapping) { row in
            streamed += 1
            guard let alone = try store.row(of: mapping, primaryKey: row.primaryKey) else { return }
            #expect(row.attributes == alone.attributes && row.toOne == alone.toOne && row.version == alone.version)
            #expect(row.problems.map(\.description) == alone.problems.map(\.description), "row \(row.primaryKey)")
            #expect(row.hasDeferredValues == alone.hasDeferredValues, "row \(row.primaryKey)")
            if !row.problems.isEmpty { withProblems += 1 }
        }
        #expect(streamed == 3)
        // Rows with and without unreadable values follow each other.
        #expect(withProblems > 0 && withProblems < streamed)
    }

    @Test func everyPathCountsTheSameObjects() throws {
        let (path, model) = try handMadeStore()
        let store = try PersistentStore(path: path, model: model)
        let mapping = try store.mapping(for: "feedback")
        let context = ManagedObjectContext(store: store)
        #expect(try store.count(of: mapping) == 3)
        #expect(try context.count(for: FetchRequest(entityName: "feedback")) == 3)
        #expect(try context.fetch("feedback").count == 3)
        var rows = 0
        try store.forEachRow(of: mapping) { _ in rows += 1 }
        #expect(rows == 3)
        #expect(try store.row(of: mapping, primaryKey: 2)?.primaryKey == 2)
        #expect(try context.existingObject(entity: "feedback", primaryKey: 3).value(forKey: "int64") == .integer(3000))
        #expect(try StoreValidator(store: store).validate(entity: "feedback") { _ in }.objectsChecked == 3)
    }

    /// `Z_MAX` 0 and text keys: a new object gets a key above the largest stored one, and a
    /// change to a row whose key and version are text finds the row.
    @Test func writesFindTextKeysAndNewKeysGoAboveThem() throws {
        let (path, model) = try handMadeStore()
        let context = ManagedObjectContext(store: try PersistentStore(path: path, model: model, readOnly: false))
        let inserted = try context.insert("feedback")
        try inserted.setValue(.string("new"), forKey: "string")
        let first = try context.existingObject(entity: "feedback", primaryKey: 1)
        try first.setValue(.string("changed"), forKey: "string")
        try context.save()
        #expect(inserted.objectID.primaryKey == 4)
        let raw = try Connection(path: path, mode: .readOnly)
        #expect(try raw.rows("SELECT CAST(Z_PK AS INTEGER), ZSTRING FROM ZFEEDBACK WHERE ZSTRING IN ('new', 'changed') ORDER BY 1").map { $0 } == [
            [.integer(1), .text("changed")], [.integer(4), .text("new")],
        ])
        #expect(try raw.scalar("SELECT COUNT(*) FROM ZFEEDBACK") == .integer(4))
    }

    @Test func storageAnomaliesAreCountedColumnByColumn() throws {
        let (path, model) = try handMadeStore()
        let raw = try Connection(path: path, mode: .readWrite)
        try raw.execute("INSERT INTO ZFEEDBACK (Z_PK, Z_ENT, Z_OPT) VALUES (9, 42, 1)")
        let anomalies = try PersistentStore(path: path, model: model).storageAnomalies()
        let messages = anomalies.map(\.message)
        #expect(messages.contains("ZFEEDBACK.ZDOUBLE: declares no type; Core Data declares FLOAT for feedback.double (Double)"))
        #expect(messages.contains("ZFEEDBACK.Z_PK: 3 values stored as text; Core Data writes integer for Z_PK"))
        #expect(messages.contains("ZFEEDBACK.ZBINARY: 1 value stored as text; Core Data writes blob for feedback.binary (Binary)"))
        #expect(messages.contains { $0.hasPrefix("Z_PRIMARYKEY: Z_MAX of feedback is 0, below the largest Z_PK 9 of ZFEEDBACK") })
        #expect(anomalies.contains { $0.kind == .unknownEntity && $0.count == 1 && $0.message.contains("Z_ENT 42") })
        // A store GraphStore wrote has none.
        let clean = try Fixtures.newStorePath()
        let context = ManagedObjectContext(store: try PersistentStore.create(at: clean, model: model))
        _ = try context.insert("feedback")
        try context.save()
        #expect(try PersistentStore(path: clean, model: model).storageAnomalies() == [])
    }
}
