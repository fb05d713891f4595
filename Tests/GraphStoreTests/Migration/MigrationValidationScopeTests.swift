import Foundation
import Testing
@testable import GraphStore

extension MigrationTests {
    /// A migrated store is validated against the rules the migration can change, and only
    /// those: a changed rule anywhere in a chain is checked under the property's last name,
    /// an unchanged one is not read again.
    @Suite struct MigrationValidationScopeTests {
        typealias F = MigrationFixtures

        static func word(_ attributes: [AttributeDescription], unique: [[String]] = []) throws -> ManagedObjectModel {
            var entity = EntityDescription("Word", attributes: attributes)
            entity.uniquenessConstraints = unique
            return try ManagedObjectModel(entities: [entity])
        }

        static func scope(_ models: ManagedObjectModel...) throws -> ValidationScope {
            let versions = ModelVersions(
                path: "built", versions: models.enumerated().map { ModelVersions.Version(name: "v\($0.offset + 1)", model: $0.element) })
            return try MigrationPlan(versions: versions, from: "v1").validationScope(versions: versions)
        }

        static func bounded(_ a: AttributeDescription, min: Double? = nil, maxLength: Int? = nil) -> AttributeDescription {
            var copy = a
            copy.minValue = min
            copy.maxLength = maxLength
            return copy
        }

        @Test func aRenameAndANewAttributeWithAPassingDefaultCheckNothing() throws {
            let v1 = try Self.word([AttributeDescription("text", .string), AttributeDescription("length", .integer64)])
            let v2 = try Self.word([
                F.renamed(AttributeDescription("spelling", .string), from: "text"), AttributeDescription("length", .integer64),
                AttributeDescription("frequency", .integer32, optional: false, default: .integer(0)),
            ])
            #expect(try Self.scope(v1, v2).isEmpty)
        }

        @Test func aChangedRuleOrAFailingDefaultIsChecked() throws {
            let v1 = try Self.word([AttributeDescription("text", .string), AttributeDescription("length", .integer64)])
            let v2 = try Self.word([
                Self.bounded(AttributeDescription("text", .string), maxLength: 8),
                Self.bounded(AttributeDescription("length", .integer64, optional: false, default: .integer(0)), min: 1),
                Self.bounded(AttributeDescription("rank", .integer32, optional: false, default: .integer(0)), min: 1),
                AttributeDescription("note", .string, optional: false, default: .string("")),
            ])
            #expect(try Self.scope(v1, v2).properties == ["Word": ["text", "length", "rank"]])
        }

        @Test func becomingRequiredWithAPassingDefaultChecksNothing() throws {
            let v1 = try Self.word([AttributeDescription("length", .integer64)])
            let v2 = try Self.word([AttributeDescription("length", .integer64, optional: false, default: .integer(3))])
            #expect(try Self.scope(v1, v2).isEmpty)
        }

        @Test func aChangeEarlyInAChainIsCheckedUnderItsLastName() throws {
            let v1 = try Self.word([AttributeDescription("text", .string)])
            let v2 = try Self.word([Self.bounded(AttributeDescription("text", .string), maxLength: 4)])
            let v3 = try Self.word([Self.bounded(F.renamed(AttributeDescription("spelling", .string), from: "text"), maxLength: 4)])
            #expect(try Self.scope(v1, v2, v3).properties == ["Word": ["spelling"]])
            #expect(try Self.scope(v2, v3).isEmpty)
        }

        @Test func aNewUniquenessConstraintIsChecked() throws {
            let v1 = try Self.word([AttributeDescription("text", .string)])
            let v2 = try Self.word([AttributeDescription("text", .string)], unique: [["text"]])
            let v3 = try Self.word([F.renamed(AttributeDescription("spelling", .string), from: "text")], unique: [["spelling"]])
            #expect(try Self.scope(v1, v2).constraints == ["Word"])
            #expect(try Self.scope(v2, v3).constraints.isEmpty)
        }

        @Test func aChangedHierarchyChecksTheWholeEntity() throws {
            let v1 = try ManagedObjectModel(entities: [
                EntityDescription("Item", attributes: [AttributeDescription("name", .string)]),
                EntityDescription("Word", attributes: [AttributeDescription("text", .string)]),
            ])
            let v2 = try ManagedObjectModel(entities: [
                EntityDescription("Item", attributes: [AttributeDescription("name", .string)]),
                EntityDescription("Word", parent: "Item", attributes: [AttributeDescription("text", .string)]),
            ])
            #expect(try Self.scope(v1, v2).wholeEntities == ["Word"])
        }

        /// Three words (`toolong` breaks v2's maximum length), one with a length of 0 that
        /// v1 already forbids, written behind a context's back; everything in the main file.
        static func store(of v1: ManagedObjectModel) throws -> String {
            let path = try Fixtures.newStorePath()
            let store = try PersistentStore.create(at: path, model: v1)
            let context = ManagedObjectContext(store: store)
            for (text, length) in [("ok", 2), ("toolong", 7), ("zero", 1)] {
                let word = try context.insert("Word")
                try word.set("text", text)
                try word.set("length", Int64(length))
            }
            try context.save()
            try Connection(path: path, mode: .readWrite).execute("UPDATE ZWORD SET ZLENGTH = 0 WHERE ZTEXT = 'zero'")
            try store.checkpoint()
            return path
        }

        /// End to end: a rule tightened in the first step of a chain whose second step only
        /// renames fails the migration for the one object it breaks, while a failure the
        /// store already had under an unchanged rule is neither re-read nor refused.
        @Test func aChainRefusesWhatItsFirstStepBreaks() throws {
            let v1 = try Self.word([
                AttributeDescription("text", .string), Self.bounded(AttributeDescription("length", .integer64), min: 1),
            ])
            // A rule alone does not change a version hash: v2 adds `note` so that the store is v1.
            let v2 = try Self.word([
                Self.bounded(AttributeDescription("text", .string), maxLength: 4), Self.bounded(AttributeDescription("length", .integer64), min: 1),
                AttributeDescription("note", .string),
            ])
            let v3 = try Self.word([
                Self.bounded(F.renamed(AttributeDescription("spelling", .string), from: "text"), maxLength: 4),
                Self.bounded(AttributeDescription("length", .integer64), min: 1), AttributeDescription("note", .string),
            ])
            let path = try Self.store(of: v1)
            let before = Fixtures.fingerprint(path)
            let error = try #require(throws: MigrationRunError.self) {
                try MigrationManager(versions: F.versions(v1, v2, v3)).migrate(storeAt: path)
            }
            guard case .validationFailed(_, let failures) = error else { Issue.record("\(error)"); return }
            #expect(failures.count == 1 && failures[0].contains("spelling") && failures[0].contains("p2"), "\(failures)")
            #expect(Fixtures.fingerprint(path) == before)

            try Connection(path: path, mode: .readWrite).execute("UPDATE ZWORD SET ZTEXT = 'long' WHERE ZTEXT = 'toolong'")
            let outcome = try MigrationManager(versions: F.versions(v1, v2, v3)).migrate(storeAt: path, options: .init(keepsBackup: false))
            #expect(outcome.replacedStore && outcome.validationFailures.isEmpty && outcome.objectCounts == ["Word": 3])
            // `length` kept its rule: its old failure was not read again.
            #expect(outcome.preexistingFailures.isEmpty, "\(outcome.preexistingFailures)")
        }
    }
}
