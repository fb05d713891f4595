import Foundation
import Testing
@testable import GraphStore

/// Errors read through `NSError`, as code written for Core Data reads them: the domain,
/// Core Data's codes and its user-info keys.
@Suite struct CoreDataErrorBridgingTests {
    private func saveError(_ context: ManagedObjectContext) -> NSError? {
        do {
            try context.save()
            return nil
        } catch {
            return error as NSError
        }
    }

    @Test func aMissingValueIs1570WithTheObjectKeyAndDomain() throws {
        let (context, _) = try ValidationFixtures.newContext(try ValidationFixtures.rulesModel())
        let book = try ValidationFixtures.validBook(context)
        try book.set("title", String?.none)
        let error = try #require(saveError(context))
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == 1570)
        #expect(error.userInfo[CoreDataErrorKey.validationKey] as? String == "title")
        #expect(error.userInfo[CoreDataErrorKey.validationObject] as? ObjectID == book.objectID)
        #expect((error.userInfo[NSLocalizedDescriptionKey] as? String)?.contains("title") == true)
    }

    @Test func severalFailuresAre1560WithEachInDetailedErrors() throws {
        let (context, _) = try ValidationFixtures.newContext(try ValidationFixtures.rulesModel())
        let book = try ValidationFixtures.validBook(context)
        try book.set("title", String?.none)
        try book.set("price", 5.0)
        let error = try #require(saveError(context))
        #expect(error.code == 1560)
        let details = try #require(error.userInfo[CoreDataErrorKey.detailedErrors] as? [NSError])
        #expect(details.map(\.code).sorted() == [1570, 1620])
        let tooSmall = try #require(details.first { $0.code == 1620 })
        #expect(tooSmall.userInfo[CoreDataErrorKey.validationKey] as? String == "price")
        #expect(tooSmall.userInfo[CoreDataErrorKey.validationValue] as? Double == 5)
    }

    @Test func aConflictIs133020WithItsConflictList() throws {
        let path = try Fixtures.newStorePath()
        let seeding = ManagedObjectContext(store: try PersistentStore.create(at: path, model: try Fixtures.bookStoreModel()))
        try seeding.insert("Book").set("title", "One")
        try seeding.save()
        let open = { ManagedObjectContext(store: try PersistentStore(path: path, model: try Fixtures.bookStoreModel(), readOnly: false)) }
        let mine = try open()
        let book = try mine.existingObject(entity: "Book", primaryKey: 1)
        let other = try open()
        try other.existingObject(entity: "Book", primaryKey: 1).set("title", "Theirs")
        try other.save()
        try book.set("title", "Mine")
        let error = try #require(saveError(mine))
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == 133020)
        let conflicts = try #require(error.userInfo[CoreDataErrorKey.saveConflicts] as? [SaveConflict])
        #expect(conflicts.map(\.objectID) == [book.objectID])
    }

    @Test func aUniquenessConflictIs133021() throws {
        let (context, _) = try ValidationFixtures.newContext(try ValidationFixtures.rulesModel())
        _ = try ValidationFixtures.validBook(context, isbn: "978-1")
        try context.save()
        _ = try ValidationFixtures.validBook(context, isbn: "978-1")
        let error = try #require(saveError(context))
        #expect(error.code == 133021)
        #expect((error.userInfo[CoreDataErrorKey.saveConflicts] as? [ValidationError])?.count == 1)
    }

    /// The conflict a save finds inside its transaction, and hands to its merge policy,
    /// still bridges as 133021 when the policy is the error one, whichever policy object
    /// says so: the shared one, or a subclass that calls `super`.
    @Test func aUniquenessConflictTheErrorPolicyMeetsIs133021WithEachObject() throws {
        for policy in [MergePolicy.error, RecordingPolicy(merge: .errorMergePolicyType)] {
            let (context, _) = try ConstraintMergePolicyTests.storedPublisher()
            let (publisher, _) = try ConstraintMergePolicyTests.insertDuplicate(context)
            context.mergePolicy = policy
            let error = try #require(saveError(context))
            #expect(error.domain == NSCocoaErrorDomain && error.code == 133021, "\(policy)")
            let conflicts = try #require(error.userInfo[CoreDataErrorKey.saveConflicts] as? [ValidationError])
            #expect(conflicts.map(\.objectID) == [publisher.objectID])
            #expect(error.userInfo[CoreDataErrorKey.affectedObjects] as? [ObjectID] == [publisher.objectID])
            let detail = conflicts[0] as NSError
            #expect(detail.code == 133021)
            #expect(detail.userInfo[CoreDataErrorKey.validationKey] as? String == "code")
            #expect(detail.userInfo[CoreDataErrorKey.validationValue] as? String == "P")
            #expect((detail.userInfo[CoreDataErrorKey.affectedObjects] as? [ObjectID])?.map(\.description) == ["Publisher/p1"])
        }
    }

    @Test func storeErrorsCarryTheirCodeAndFile() throws {
        let missing = try Fixtures.newStorePath("missing.sqlite")
        do {
            _ = try PersistentStore(path: missing, model: try Fixtures.bookStoreModel())
            Issue.record("a missing file opened")
        } catch {
            let error = error as NSError
            #expect(error.domain == NSCocoaErrorDomain)
            #expect(error.code == 134080)
            #expect(error.userInfo[CoreDataErrorKey.filePath] as? String == missing)
        }
    }
}
