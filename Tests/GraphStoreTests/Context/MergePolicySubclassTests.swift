import Foundation
import Testing
@testable import GraphStore

/// Subclasses of ``MergePolicy``: what each `resolve` method is handed, changes made after
/// `super` saved with the rest, a policy that resolves by itself, one that resolves
/// nothing, and one that throws, which leaves the context and the store as they were.
@Suite struct MergePolicySubclassTests {
    private typealias C = ConstraintMergePolicyTests

    /// The store's files, but for the shared-memory index (which readers write to).
    private func storeFiles(_ path: String) -> [String: Data] {
        Fixtures.fingerprint(path).filter { $0.key != "-shm" }
    }

    private func rows(_ path: String, _ sql: String) throws -> [[String]] {
        try Connection(path: path, mode: .readOnly).rows(sql).map { $0.map(\.description) }
    }

    /// Another context renames Publisher/p1 and saves.
    private func otherRenames(_ path: String, to name: String) throws {
        let other = try C.reopen(path)
        try other.existingObject(entity: "Publisher", primaryKey: 1).set("name", name)
        try other.save()
    }

    // MARK: - What each method is handed

    @Test func constraintConflictsComeInCoreDatasShape() throws {
        let (context, _) = try C.storedPublisher()
        let (inserted, _) = try C.insertDuplicate(context)
        let policy = RecordingPolicy(merge: .mergeByPropertyStoreTrumpMergePolicyType)
        try context.save(mergePolicy: policy)
        #expect(policy.calls == ["mergeConflicts(1)", "optimisticLocking(0)", "constraint(1)"])
        let conflict = try #require(policy.constraintConflicts.first)
        #expect(conflict.constraint == ["code"])
        #expect(conflict.constraintValues == ["code": .string("P")])
        #expect(conflict.databaseObject?.objectID.description == "Publisher/p1")
        #expect(conflict.databaseSnapshot == [
            "code": .attribute(.string("P")), "name": .attribute(.string("Penguin")), "city": .attribute(.string("London")),
            "owner": .objectID(try context.existingObject(entity: "Owner", primaryKey: 1).objectID),
        ])
        #expect(conflict.conflictingObjects.map(ObjectIdentifier.init) == [ObjectIdentifier(inserted)])
        #expect(conflict.conflictingSnapshots.count == 1 && conflict.conflictingSnapshots[0] == nil)
        #expect(conflict.validationErrors.map(\.description) == [
            "Publisher/t1: code \"P\" is not unique: Publisher/p1 has the same value (uniqueness constraint on code)"
        ])
    }

    @Test func optimisticLockingConflictsCarryTheObjectAndItsSnapshots() throws {
        let (context, path) = try C.storedPublisher()
        let publisher = try context.existingObject(entity: "Publisher", primaryKey: 1)
        try publisher.set("city", "Harmondsworth")
        try otherRenames(path, to: "Penguin Books")
        let policy = RecordingPolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
        let resolved = try context.save(mergePolicy: policy)
        #expect(policy.calls == ["mergeConflicts(1)", "optimisticLocking(1)", "constraint(0)"])
        let conflict = try #require(policy.optimisticConflicts.first)
        #expect(conflict.sourceObject === publisher)
        #expect(conflict.oldVersionNumber == 1 && conflict.newVersionNumber == 2)
        #expect(conflict.objectSnapshot?["city"] == .attribute(.string("Harmondsworth")))
        #expect(conflict.objectSnapshot?["name"] == .attribute(.string("Penguin")))
        #expect(conflict.cachedSnapshot?["city"] == .attribute(.string("London")))
        #expect(conflict.persistedSnapshot?["name"] == .attribute(.string("Penguin Books")))
        #expect(conflict.persistedSnapshot?["city"] == .attribute(.string("London")))
        #expect(conflict.differences.map(\.key) == ["name", "city"])
        #expect(resolved.map(\.objectID) == [publisher.objectID])
        #expect(try rows(path, "SELECT ZNAME, ZCITY, Z_OPT FROM ZPUBLISHER") == [["Penguin Books", "Harmondsworth", "3"]])
    }

    /// Core Data hands both kinds in one call, optimistic-locking conflicts first.
    @Test func mergeConflictsGetBothKindsInOneCall() throws {
        let (context, path) = try C.storedPublisher()
        let publisher = try context.existingObject(entity: "Publisher", primaryKey: 1)
        try publisher.set("city", "Harmondsworth")
        try otherRenames(path, to: "Penguin Books")
        let (_, book) = try C.insertDuplicate(context)
        let policy = RecordingPolicy(merge: .mergeByPropertyStoreTrumpMergePolicyType)
        try context.save(mergePolicy: policy)
        #expect(policy.calls == ["mergeConflicts(2)", "optimisticLocking(1)", "constraint(1)"])
        // Stored name over the renamed one; the city this context changed; one row.
        #expect(try rows(path, "SELECT Z_PK, ZNAME, ZCITY FROM ZPUBLISHER") == [["1", "Penguin Books", "Harmondsworth"]])
        #expect(try book.object(forKey: "publisher") === publisher)
    }

    // MARK: - Changes after super

    /// Runs store trump, then renames each survivor: the rename is saved with the rest.
    final class RenamingSurvivor: MergePolicy {
        init() { super.init(merge: .mergeByPropertyStoreTrumpMergePolicyType) }

        override func resolve(constraintConflicts list: [ConstraintConflict]) throws {
            try super.resolve(constraintConflicts: list)
            for case let survivor? in list.map(\.databaseObject) {
                try survivor.set("name", "\(try survivor.get("name", as: String.self) ?? "") & Co")
            }
        }
    }

    @Test func aChangeAfterSuperIsSavedWithTheRest() throws {
        let (context, path) = try C.storedPublisher()
        _ = try C.insertDuplicate(context)
        try context.save(mergePolicy: RenamingSurvivor())
        #expect(try rows(path, "SELECT ZNAME FROM ZPUBLISHER") == [["Penguin & Co"]])
        #expect(try rows(path, "SELECT ZPUBLISHER FROM ZBOOK") == [["1"], ["1"]])
    }

    /// Runs object trump, then marks each conflicting object's city.
    final class MarkingMerged: MergePolicy {
        init() { super.init(merge: .mergeByPropertyObjectTrumpMergePolicyType) }

        override func resolve(optimisticLockingConflicts list: [MergeConflict]) throws {
            try super.resolve(optimisticLockingConflicts: list)
            for conflict in list { try conflict.sourceObject.set("city", "merged") }
        }
    }

    @Test func aChangeAfterSuperToAConflictingObjectIsWritten() throws {
        let (context, path) = try C.storedPublisher()
        let publisher = try context.existingObject(entity: "Publisher", primaryKey: 1)
        try publisher.set("name", "Mine")
        try otherRenames(path, to: "Theirs")
        context.mergePolicy = MarkingMerged()
        try context.save()
        #expect(try rows(path, "SELECT ZNAME, ZCITY, Z_OPT FROM ZPUBLISHER") == [["Mine", "merged", "3"]])
        #expect(!publisher.hasChanges && publisher.version == 3)
    }

    // MARK: - Resolving without super, and resolving nothing

    /// Drops every inserted duplicate instead of merging it.
    final class DroppingInsertedDuplicates: MergePolicy {
        init() { super.init(merge: .errorMergePolicyType) }

        override func resolve(constraintConflicts list: [ConstraintConflict]) throws {
            for conflict in list {
                for object in conflict.conflictingObjects where object.isInserted { try object.managedObjectContext?.delete(object) }
            }
        }
    }

    @Test func aSubclassMayResolveWithoutSuper() throws {
        let (context, path) = try C.storedPublisher()
        let (inserted, book) = try C.insertDuplicate(context)
        try context.save(mergePolicy: DroppingInsertedDuplicates())
        #expect(try rows(path, "SELECT Z_PK, ZNAME FROM ZPUBLISHER") == [["1", "Penguin"]])
        #expect(try rows(path, "SELECT ZTITLE, ifnull(ZPUBLISHER, '-') FROM ZBOOK ORDER BY Z_PK") == [["Stored", "1"], ["Inserted", "-"]])
        #expect(inserted.managedObjectContext == nil && book.objectID.primaryKey == 2)
    }

    /// Looks at every conflict and changes nothing.
    final class Idle: MergePolicy {
        init() { super.init(merge: .mergeByPropertyObjectTrumpMergePolicyType) }
        override func resolve(optimisticLockingConflicts list: [MergeConflict]) throws {}
        override func resolve(constraintConflicts list: [ConstraintConflict]) throws {}
    }

    @Test func conflictsNoAttemptResolvesFailTheSave() throws {
        let (context, path) = try C.storedPublisher()
        let (inserted, _) = try C.insertDuplicate(context)
        let before = storeFiles(path)
        do {
            try context.save(mergePolicy: Idle())
            Issue.record("a save whose conflicts no policy resolved went through")
        } catch let failure as ConstraintConflictError {
            #expect(failure.conflicts.map(\.objectID) == [inserted.objectID])
        }
        #expect(storeFiles(path) == before)
        context.rollback()
        let publisher = try context.existingObject(entity: "Publisher", primaryKey: 1)
        try publisher.set("name", "Mine")
        try otherRenames(path, to: "Theirs")
        #expect(throws: StoreError.optimisticLockingFailure([
            SaveConflict(objectID: publisher.objectID, expectedVersion: 1, storedVersion: 2, differences: [
                .init(key: "name", yours: .attribute(.string("Mine")), stored: .attribute(.string("Theirs")))
            ])
        ])) { try context.save(mergePolicy: Idle()) }
        #expect(try rows(path, "SELECT ZNAME FROM ZPUBLISHER") == [["Theirs"]])
    }

    // MARK: - A policy that throws

    struct Refused: Error, Equatable {}

    /// Runs its type, then refuses.
    final class RefusingAfterSuper: MergePolicy {
        override func resolve(mergeConflicts list: [Any]) throws {
            try super.resolve(mergeConflicts: list)
            throw Refused()
        }
    }

    @Test func aPolicyThatThrowsAfterCollapsingLeavesEverythingAsItWas() throws {
        let (context, path) = try C.storedPublisher()
        let (inserted, book) = try C.insertDuplicate(context)
        let before = storeFiles(path)
        #expect(throws: Refused()) { try context.save(mergePolicy: RefusingAfterSuper(merge: .mergeByPropertyObjectTrumpMergePolicyType)) }
        #expect(storeFiles(path) == before)
        // The duplicate is back, inserted, with its book and its values.
        #expect(inserted.managedObjectContext === context && inserted.isInserted && inserted.objectID.isTemporary)
        #expect(try book.object(forKey: "publisher") === inserted)
        #expect(try inserted.objects(forKey: "books").map { $0 === book } == [true])
        #expect(try inserted.get("name", as: String.self) == "Pelican")
        #expect(Set(context.insertedObjects.map(ObjectIdentifier.init)) == [ObjectIdentifier(inserted), ObjectIdentifier(book)])
        #expect(context.updatedObjects.isEmpty && context.deletedObjects.isEmpty)
        // The stored row's object, which took the duplicate's values, holds the stored ones.
        let stored = try context.existingObject(entity: "Publisher", primaryKey: 1)
        #expect(!stored.hasChanges)
        #expect(try stored.get("name", as: String.self) == "Penguin")
        #expect(try stored.objects(forKey: "books").map(\.objectID.description) == ["Book/p1"])
        // And the context saves as before the failed save.
        try context.save(mergePolicy: .mergeByPropertyStoreTrump)
        #expect(try rows(path, "SELECT ZPUBLISHER FROM ZBOOK") == [["1"], ["1"]])
    }

    @Test func aPolicyThatThrowsAfterMergingPutsTheObjectBack() throws {
        let (context, path) = try C.storedPublisher()
        let publisher = try context.existingObject(entity: "Publisher", primaryKey: 1)
        try publisher.set("city", "Harmondsworth")
        try otherRenames(path, to: "Theirs")
        let before = storeFiles(path)
        #expect(throws: Refused()) { try context.save(mergePolicy: RefusingAfterSuper(merge: .mergeByPropertyObjectTrumpMergePolicyType)) }
        #expect(storeFiles(path) == before)
        #expect(try publisher.get("name", as: String.self) == "Penguin")
        #expect(publisher.changedKeys() == ["city"] && publisher.version == 1)
    }

    // MARK: - Identity, and what a policy refuses

    @Test func sharedPoliciesAreTheirTypes() {
        #expect(MergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType) == .mergeByPropertyObjectTrump)
        #expect(MergePolicy.error != .overwrite)
        #expect(MergePolicy.error.mergeType == .errorMergePolicyType && MergePolicy.rollback.mergeType.rawValue == 4)
        #expect(Set([MergePolicy.rollback, MergePolicy(merge: .rollbackMergePolicyType)]).count == 1)
        let subclass = RecordingPolicy(merge: .rollbackMergePolicyType)
        #expect(subclass != .rollback && subclass == subclass)
        #expect(MergePolicy.mergeByPropertyStoreTrump.description == "mergeByPropertyStoreTrump")
        #expect(subclass.description == "RecordingPolicy(rollback)")
        #expect(MergePolicyType.allCases.map(\.rawValue) == [0, 1, 2, 3, 4])
    }

    @Test func builtInPoliciesRefuseWhatNoSaveHandedThem() throws {
        let (context, _) = try C.storedPublisher()
        let publisher = try context.existingObject(entity: "Publisher", primaryKey: 1)
        let made = MergeConflict(source: publisher, newVersion: 2, oldVersion: 1, cachedSnapshot: nil, persistedSnapshot: ["name": .attribute(.string("Other"))])
        #expect(made.differences.map(\.key) == ["city", "code", "name", "owner"])
        #expect(made.rowIsGone == false && made.newVersionNumber == 2)
        #expect(throws: StoreError.unresolvableConflict("the conflict of Publisher/p1 was not handed over by a save under way (a built-in policy settles only those)")) {
            try MergePolicy.overwrite.resolve(optimisticLockingConflicts: [made])
        }
        #expect(throws: StoreError.optimisticLockingFailure([made.saveConflict])) { try MergePolicy.error.resolve(optimisticLockingConflicts: [made]) }
        #expect(throws: StoreError.unresolvableConflict("a String is neither a MergeConflict nor a ConstraintConflict")) {
            try MergePolicy.overwrite.resolve(mergeConflicts: ["Publisher/p1"])
        }
        #expect((StoreError.unresolvableConflict("x") as NSError).code == 134060)
    }
}
