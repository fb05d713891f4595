import Foundation
import Testing
@testable import GraphStore

/// A failed save changes nothing on disk and leaves the context as it was, so the user can
/// fix the problem and save again.
@Suite struct FailedSaveTests {
    typealias F = ValidationFixtures

    /// The store file and its write-ahead log (the `-shm` index is SQLite's scratch memory,
    /// which readers update too, so it is not part of the content).
    private func contents(_ path: String) -> [String: Data] {
        Fixtures.fingerprint(path).filter { $0.key != "-shm" }
    }

    /// What a context holds: the pending objects by identity and their values.
    private func state(_ context: ManagedObjectContext) throws -> [String] {
        func describe(_ objects: [ManagedObject]) throws -> [String] {
            try objects.map { object in
                let values = try object.mapping.attributes.map { "\(try object.value(forKey: $0.attribute.name).map { "\($0)" } ?? "nil")" }
                return "\(object.objectID) \(ObjectIdentifier(object).hashValue) \(values) \(object.changedKeys())"
            }
        }
        return try ["inserted"] + describe(context.insertedObjects) + ["updated"] + describe(context.updatedObjects)
            + ["deleted"] + describe(context.deletedObjects)
    }

    @Test func aValidationFailureWritesNothingAndKeepsEveryChange() throws {
        let (context, path) = try F.newContext(try F.rulesModel())
        let kept = try F.validBook(context, isbn: "978-1")
        let doomed = try F.validBook(context, isbn: "978-2")
        try context.save()
        try kept.set("price", 5)                       // 1620
        try context.delete(doomed)
        let fresh = try F.validBook(context, isbn: "978-2")
        try fresh.setValue(nil, forKey: "title")        // 1570
        let bytes = contents(path)
        let before = try state(context)
        let failures = try F.failures { try context.save() }
        #expect(failures.map(\.code.rawValue) == [1570, 1620])
        #expect(contents(path) == bytes)
        #expect(try state(context) == before)
        #expect(fresh.objectID.isTemporary)
        #expect(try F.rows(path, "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Book'") == [["Book", "2"]])
        // Fix and save again.
        try kept.set("price", 15)
        try fresh.set("title", "Children of Dune")
        try context.save()
        #expect(!context.hasChanges)
        #expect(fresh.objectID.primaryKey == 3)
        let rows = try F.rows(path, "SELECT Z_PK, ZTITLE, ZPRICE, ZISBN FROM ZBOOK ORDER BY Z_PK")
        #expect(rows == [
            ["1", "Dune", "15.0", "978-1"], ["3", "Children of Dune", "20.0", "978-2"],
        ])
    }

    @Test func aUniquenessConflictWritesNothing() throws {
        let (context, path) = try F.newContext(try F.rulesModel())
        _ = try F.validBook(context, isbn: "978-1")
        try context.save()
        let copy = try F.validBook(context, isbn: "978-1")
        let bytes = contents(path)
        let before = try state(context)
        #expect(throws: ConstraintConflictError.self) { try context.save() }
        #expect(contents(path) == bytes)
        #expect(try state(context) == before)
        try copy.set("isbn", "978-9")
        try context.save()
        #expect(try F.rows(path, "SELECT ZISBN FROM ZBOOK ORDER BY Z_PK") == [["978-1"], ["978-9"]])
    }

    @Test func aFailedTransactionRollsBackAndKeepsTheContextAsItWas() throws {
        let model = try InverseMaintenanceTests.model()
        let (context, path) = try F.newContext(model)
        let volume = try context.insert("Volume")
        let pages = try (0..<3).map { i -> ManagedObject in
            let page = try context.insert("Leaf")
            try page.set("text", "page \(i)")
            try volume.add(page, toKey: "pages")
            return page
        }
        let shelf = try context.insert("Shelf")
        try context.save()
        // Someone else changes the shelf: our update of it will fail inside the transaction,
        // after the volume's reordered pages were rewritten.
        let other = try F.reopen(path, model)
        try other.existingObject(entity: "Shelf", primaryKey: 1).set("name", "theirs")
        try other.save()
        try volume.insert(pages[2], at: 0, forKey: "pages")
        try volume.set("title", "reordered")
        try shelf.set("name", "ours")
        let added = try context.insert("Library")
        let bytes = contents(path)
        let before = try state(context)
        let conflict = SaveConflict(
            objectID: shelf.objectID, expectedVersion: 1, storedVersion: 2,
            differences: [.init(key: "name", yours: .attribute(.string("ours")), stored: .attribute(.string("theirs")))])
        #expect(throws: StoreError.optimisticLockingFailure([conflict])) { try context.save() }
        #expect(contents(path) == bytes)
        #expect(try state(context) == before)
        #expect(added.objectID.isTemporary)
        #expect(try F.rows(path, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Library'") == [["0"]])
        // Give up the conflicting change and save the rest.
        context.rollback()
        try volume.insert(pages[2], at: 0, forKey: "pages")
        _ = try context.insert("Library")
        try context.save()
        #expect(try F.rows(path, "SELECT ZTEXT FROM ZLEAF ORDER BY Z_FOK_VOLUME") == [["page 2"], ["page 0"], ["page 1"]])
        #expect(try F.rows(path, "SELECT COUNT(*) FROM ZLIBRARY") == [["1"]])
    }
}
