import Foundation
import Testing
@testable import GraphStore

/// `StoreValidator`: stored objects checked against the model by streaming rows, with the
/// checks that need other rows answered by SQL.
@Suite struct StoreValidatorTests {
    typealias F = ValidationFixtures

    /// A store of three valid books (p1, p2, p3), then broken behind the library's back.
    private func brokenStore() throws -> (String, ManagedObjectModel) {
        let model = try F.rulesModel()
        let (context, path) = try F.newContext(model)
        for isbn in ["978-1", "978-2", "978-3"] { _ = try F.validBook(context, isbn: isbn) }
        try context.save()
        guard case .joinTable(let join) = try context.store.mapping(for: "Book").relationship(named: "authors")?.storage else {
            throw StoreError.unknownKey(entity: "Book", key: "authors")
        }
        let raw = try Connection(path: path, mode: .readWrite)
        try raw.executeScript("""
            DROP INDEX IF EXISTS Z_Book_UNIQUE_isbn;
            UPDATE ZBOOK SET ZPRICE = 5, ZTITLE = NULL WHERE Z_PK = 1;
            UPDATE ZBOOK SET ZISBN = '978-1', ZCOVER = 'not a blob' WHERE Z_PK = 2;
            DELETE FROM ZPUBLISHER WHERE Z_PK = 3;
            DELETE FROM \(join.table) WHERE \(join.sourceColumn) = 3 AND \(join.destinationColumn) = 5;
            DELETE FROM ZAUTHOR WHERE Z_PK = 6;
            DELETE FROM ZCHAPTER WHERE Z_PK = 1;
            """)
        return (path, model)
    }

    private func findings(_ path: String, _ model: ManagedObjectModel, entity: String? = nil, where format: String? = nil) throws -> ([String], StoreValidator.Summary) {
        let store = try PersistentStore(path: path, model: model)
        var found: [String] = []
        let summary = try StoreValidator(store: store).validate(entity: entity, where: format.map { try ObjectPredicate(format: $0) }) {
            found.append("\($0.code.rawValue) \($0)")
        }
        return (found, summary)
    }

    @Test func reportsEveryKindOfFailureObjectByObject() throws {
        let (path, model) = try brokenStore()
        let bytes = Fixtures.fingerprint(path)
        let (found, summary) = try findings(path, model, entity: "Book")
        #expect(found == [
            "1570 Book/p1: title has no value, but it is required",
            "1620 Book/p1: price 5 is below the minimum 15",
            "1580 Book/p1: chapters holds 0 objects, fewer than the minimum 1",
            "133021 Book/p1: isbn \"978-1\" is not unique: Book/p2 has the same value (uniqueness constraint on isbn)",
            // Text in a Binary column reads as its bytes, as sqlite3_column_blob reads it.
            "1660 Book/p2: cover <10 bytes: 6e6f74206120626c…> is 10 bytes long, longer than the maximum length 4",
            "133021 Book/p2: isbn \"978-1\" is not unique: Book/p1 has the same value (uniqueness constraint on isbn)",
            "1580 Book/p3: authors holds 1 object, fewer than the minimum 2",
            "133000 Book/p3: publisher points at Publisher/p3, which does not exist",
            "133000 Book/p3: authors points at Author/p6, which does not exist",
        ])
        #expect(summary == StoreValidator.Summary(objectsChecked: 3, failures: 9))
        #expect(Fixtures.fingerprint(path) == bytes)
    }

    @Test func aPredicateChoosesTheObjects() throws {
        let (path, model) = try brokenStore()
        let (found, summary) = try findings(path, model, entity: "Book", where: "price < 10")
        #expect(summary.objectsChecked == 1)
        #expect(found.allSatisfy { $0.contains("Book/p1:") })
        let (byKeyPath, _) = try findings(path, model, entity: "Book", where: "publisher == nil OR ANY authors.name == 'nobody'")
        #expect(byKeyPath.isEmpty)   // p3's publisher key is dangling, not nil
        let (counted, countedSummary) = try findings(path, model, entity: "Book", where: "chapters.@count == 0")
        #expect(countedSummary.objectsChecked == 1)
        #expect(counted.count == 4 && counted.allSatisfy { $0.contains("Book/p1:") })
    }

    @Test func everyEntityIsCheckedWithoutOne() throws {
        let (path, model) = try brokenStore()
        let (found, summary) = try findings(path, model)
        // 3 books, 2 remaining publishers, 5 authors, 2 chapters.
        #expect(summary.objectsChecked == 12)
        #expect(found.count == 9)
    }

    @Test func oneToOnesThatDisagreeWithThemselvesAreReported() throws {
        let model = try InverseMaintenanceTests.model()
        let (context, path) = try F.newContext(model)
        for i in 1...3 {
            let person = try context.insert("Person")
            try person.setObject(try context.insert("Passport"), forKey: "passport")
            try person.set("name", "p\(i)")
        }
        try context.save()
        let raw = try Connection(path: path, mode: .readWrite)
        // Person 1 now points at passport 2, whose owner is still person 2; passport 3 has no owner.
        try raw.executeScript("UPDATE ZPERSON SET ZPASSPORT = 2 WHERE Z_PK = 1; UPDATE ZPASSPORT SET ZOWNER = NULL WHERE Z_PK = 3")
        let (found, _) = try findings(path, model)
        #expect(found == [
            "133000 Passport/p1: owner points at Person/p1, whose passport points at Passport/p2",
            "133000 Person/p1: passport points at Passport/p2, whose owner points at Person/p2",
            "133000 Person/p3: passport points at Passport/p3, whose owner is empty",
        ])
    }

    @Test func aValidStoreHasNoFindings() throws {
        let model = try F.rulesModel()
        let (context, path) = try F.newContext(model)
        for _ in 0..<5 { _ = try F.validBook(context) }
        try context.save()
        let (found, summary) = try findings(path, model)
        #expect(found.isEmpty)
        #expect(summary.objectsChecked == 25)
    }

    @Test func sizesOfLargeRelationshipsAreCountedInOnePass() throws {
        // Owners with 0, 1, 2, … 9 members, interleaved, checked against a maximum of 4.
        let model = try ManagedObjectModel {
            EntityDescription("Owner") {
                RelationshipDescription("members", to: "Member", inverse: "owner", toMany: true).maxCount(4)
            }
            EntityDescription("Member") { RelationshipDescription("owner", to: "Owner", inverse: "members") }
        }
        let (context, path) = try F.newContext(model)
        let owners = try (0..<10).map { _ in try context.insert("Owner") }
        for round in 0..<9 {
            for (i, owner) in owners.enumerated() where i > round { try owner.add(try context.insert("Member"), toKey: "members") }
        }
        // A save refuses owners 5…9 (too many members); the store gets its rows by hand.
        #expect(try F.failures { try context.save() }.map(\.code) == Array(repeating: .tooManyObjects, count: 5))
        context.rollback()
        let raw = try Connection(path: path, mode: .readWrite)
        try raw.execute("INSERT INTO ZOWNER (Z_PK, Z_ENT, Z_OPT) VALUES (1,2,1),(2,2,1),(3,2,1),(4,2,1),(5,2,1),(6,2,1),(7,2,1),(8,2,1)")
        var pk = 0
        for owner in [3, 7, 1, 7, 7, 8, 7, 3, 7, 8, 7] {
            pk += 1
            try raw.execute("INSERT INTO ZMEMBER (Z_PK, Z_ENT, Z_OPT, ZOWNER) VALUES (\(pk), 1, 1, \(owner))")
        }
        let (found, summary) = try findings(path, model)
        #expect(found == ["1590 Owner/p7: members holds 6 objects, more than the maximum 4"])
        #expect(summary.objectsChecked == 19)
    }
}
