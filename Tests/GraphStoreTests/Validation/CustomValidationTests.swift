import Foundation
import Testing
@testable import GraphStore

/// A `User` as Core Data apps write one: typed accessors, per-property validation, an
/// object-level rule, a delete refused by code, computed defaults, primitive accessors,
/// a derived property and `willSave`.
final class ValidatedUser: ManagedObject {
    nonisolated(unsafe) static var willSaveCalls = 0

    var firstName: String? { get throws { try get("firstName") } }
    func setFirstName(_ value: String?) throws { try set("firstName", value) }
    var email: String? { get throws { try get("email") } }

    /// Built on the primitive accessors: trimming a nickname is not a change to save.
    var nickname: String? { get throws { try get("nickname") } }
    func setNickname(_ value: String) throws { try setPrimitive("nickname", value.trimmingCharacters(in: .whitespaces)) }

    /// Derived, read-only: never stored.
    var displayName: String {
        get throws { [try firstName, try get("lastName", as: String.self)].compactMap { $0 }.joined(separator: " ") }
    }

    override func awakeFromInsert() {
        try? setPrimitive("joined", Date(timeIntervalSince1970: 1_700_000_000))
    }

    override func willSave() {
        ValidatedUser.willSaveCalls += 1
        if !isDeleted { try? setPrimitive("saveCount", ((try? get("saveCount", as: Int.self)) ?? 0) + 1) }
    }

    override func validateValue(_ value: AttributeValue?, forKey key: String) throws {
        try super.validateValue(value, forKey: key)
        switch key {
        case "firstName":
            if (value?.stringValue ?? "").trimmingCharacters(in: .whitespaces).isEmpty {
                throw ValidationError(self, key: key, value: value, reason: "first name cannot be empty")
            }
        case "email":
            guard let email = value?.stringValue else { return }
            if email.range(of: "^[^@ ]+@[^@ ]+\\.[a-z]+$", options: .regularExpression) == nil {
                throw ValidationError(self, key: key, value: value, reason: "not an e-mail address", code: .stringPatternMismatch)
            }
        case "lastName":
            if value?.stringValue == "Error" { throw PlainError() }
        default:
            break
        }
    }

    override func validateForInsert() throws {
        try MultipleValidationErrors.collect({ try super.validateForInsert() }, { try self.validateNameAndEmail() })
    }

    override func validateForUpdate() throws {
        try MultipleValidationErrors.collect({ try super.validateForUpdate() }, { try self.validateNameAndEmail() })
    }

    override func validateForDelete() throws {
        try super.validateForDelete()
        let notes = try objects(forKey: "notes").count
        if notes > 0 { throw ValidationError(self, key: "notes", reason: "a user who still has notes cannot be deleted") }
    }

    /// An interproperty rule: the e-mail must not be just the first name.
    private func validateNameAndEmail() throws {
        if let name = try firstName, let email = try email, email.hasPrefix(name.lowercased() + "@") {
            throw ValidationError(self, key: "email", value: .string(email), reason: "the e-mail must not be made of the first name")
        }
    }

    struct PlainError: Error, CustomStringConvertible {
        var description: String { "last name rejected by the app" }
    }
}

@Suite(.serialized) struct CustomValidationTests {
    typealias F = ValidationFixtures

    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("User") {
                AttributeDescription("firstName", .string)
                AttributeDescription("lastName", .string)
                AttributeDescription("email", .string).maxLength(40)
                AttributeDescription("nickname", .string)
                AttributeDescription("joined", .date).required()
                AttributeDescription("saveCount", .integer32)
                RelationshipDescription("notes", to: "Note", inverse: "user", toMany: true).deleteRule(.cascade)
            }
            EntityDescription("Note") {
                AttributeDescription("text", .string)
                RelationshipDescription("user", to: "User", inverse: "notes")
            }
        }
    }

    private func context() throws -> (ManagedObjectContext, String) {
        let (context, path) = try F.newContext(try Self.model())
        context.register(ValidatedUser.self, forEntity: "User")
        return (context, path)
    }

    private func user(_ context: ManagedObjectContext, _ first: String?, email: String? = nil) throws -> ValidatedUser {
        let user = try context.insert(ValidatedUser.self, entity: "User")
        try user.setFirstName(first)
        try user.set("email", email)
        return user
    }

    @Test func perPropertyValidationRunsAfterTheModelsRules() throws {
        let (context, _) = try context()
        let user = try user(context, "  ", email: "bob-at-example")
        let failures = try F.failures { try context.save() }
        #expect(failures.map(\.description) == [
            "User/t1: firstName \"  \" is not valid: first name cannot be empty",
            "User/t1: email \"bob-at-example\" is not valid: not an e-mail address",
        ])
        #expect(failures.map(\.code.rawValue) == [1550, 1680])
        // The model's rule for the key comes first and stops the custom one for that key.
        try user.setFirstName("Bob")
        try user.set("email", String(repeating: "x", count: 41))
        #expect(try F.failures { try context.save() }.map(\.code.rawValue) == [1660])
        try user.set("email", "robert@example.org")
        try context.save()
        #expect(user.objectID.primaryKey == 1)
    }

    @Test func objectLevelRulesKeepTheStandardChecksErrors() throws {
        let (context, _) = try context()
        let user = try user(context, "", email: "ann@example.org")
        try user.setFirstName("Ann")
        try user.setPrimitiveValue(nil, forKey: "joined")
        let failures = try F.failures { try user.validateForInsert() }
        #expect(failures.map(\.description) == [
            "User/t1: joined has no value, but it is required",
            "User/t1: email \"ann@example.org\" is not valid: the e-mail must not be made of the first name",
        ])
        #expect(throws: MultipleValidationErrors.self) { try user.validateForInsert() }
    }

    @Test func anAppsOwnErrorTypeBecomesA1550NamingTheProperty() throws {
        let (context, _) = try context()
        let user = try user(context, "Cy")
        try user.set("lastName", "Error")
        let failures = try F.failures { try context.save() }
        #expect(failures.map(\.description) == ["User/t1: lastName \"Error\" is not valid: last name rejected by the app"])
    }

    @Test func validateForDeleteRefusesUsersWithNotes() throws {
        let (context, path) = try context()
        let user = try user(context, "Dee", email: "d.e@example.org")
        let note = try context.insert("Note")
        try note.setObject(user, forKey: "user")
        try context.save()
        let before = try F.failures { try user.validateForDelete() }
        #expect(before.map(\.description) == ["User/p1: notes: a user who still has notes cannot be deleted"])
        // As in Core Data, the delete itself is allowed and cascades; the save refuses it.
        try context.delete(user)
        #expect(note.isDeleted)
        let failures = try F.failures { try context.save() }
        #expect(failures.map(\.code.rawValue) == [1550])
        #expect(try F.rows(path, "SELECT COUNT(*) FROM ZUSER") == [["1"]])
        context.rollback()
        #expect(!user.isDeleted && !note.isDeleted)
    }

    @Test func awakeFromInsertSetsComputedDefaults() throws {
        let (context, path) = try context()
        let user = try user(context, "Eve")
        #expect(try user.get("joined", as: Date.self) == Date(timeIntervalSince1970: 1_700_000_000))
        try context.save()
        let stored = try F.rows(path, "SELECT ZJOINED FROM ZUSER")
        #expect(stored == [["721692800"]])   // seconds since 2001 (a TIMESTAMP column keeps whole reals as integers)
    }

    @Test func primitiveAccessorsBypassChangeTracking() throws {
        let (context, path) = try context()
        let user = try user(context, "Fay")
        try context.save()
        try user.setNickname("  fifi ")
        #expect(try user.nickname == "fifi")
        #expect(!user.hasChanges)
        #expect(!context.hasChanges)
        try context.save()
        #expect(try F.rows(path, "SELECT ZNICKNAME FROM ZUSER") == [["NULL"]])
        // The next recorded change writes the whole row, primitive value included.
        try user.set("lastName", "Fox")
        #expect(user.changedKeys() == ["lastName"])
        try context.save()
        #expect(try F.rows(path, "SELECT ZNICKNAME, ZLASTNAME FROM ZUSER") == [["fifi", "Fox"]])
    }

    @Test func derivedPropertiesAreComputedNotStored() throws {
        let (context, _) = try context()
        let user = try user(context, "Gus")
        try user.set("lastName", "Grey")
        #expect(try user.displayName == "Gus Grey")
        #expect(user.mapping.attribute(named: "displayName") == nil)
    }

    @Test func willSaveRunsOnceForEachSavedObjectBeforeValidation() throws {
        let (context, path) = try context()
        ValidatedUser.willSaveCalls = 0
        let a = try user(context, "Hal")
        _ = try user(context, "Ida")
        try context.save()
        #expect(ValidatedUser.willSaveCalls == 2)
        #expect(try F.rows(path, "SELECT ZSAVECOUNT FROM ZUSER ORDER BY Z_PK") == [["1"], ["1"]])
        try a.set("lastName", "Hill")
        try context.save()
        #expect(ValidatedUser.willSaveCalls == 3)
        #expect(try F.rows(path, "SELECT ZSAVECOUNT FROM ZUSER ORDER BY Z_PK") == [["2"], ["1"]])
    }
}
