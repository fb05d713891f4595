import Foundation
import Testing
@testable import GraphStore

/// Every validation code, each with its message: what broke, and the rule it broke.
@Suite struct ValidationCodeTests {
    typealias F = ValidationFixtures

    /// Saves one otherwise valid book after `change`, expecting exactly one failure.
    private func singleFailure(_ change: (ManagedObject, ManagedObjectContext) throws -> Void) throws -> ValidationError {
        let (context, _) = try F.newContext(try F.rulesModel())
        let book = try F.validBook(context)
        try change(book, context)
        let failures = try F.failures { try context.save() }
        try #require(failures.count == 1, "\(failures)")
        // A single failure is thrown as itself, not wrapped in 1560.
        #expect(throws: ValidationError.self) { try context.save() }
        return failures[0]
    }

    @Test func aValidObjectSaves() throws {
        let (context, path) = try F.newContext(try F.rulesModel())
        _ = try F.validBook(context, isbn: "978-0441")
        try context.save()
        #expect(try F.rows(path, "SELECT COUNT(*) FROM ZBOOK") == [["1"]])
    }

    @Test func missingMandatoryAttribute1570() throws {
        let error = try singleFailure { book, _ in try book.setValue(nil, forKey: "title") }
        #expect(error.code == .missingMandatoryProperty)
        #expect(error.code.rawValue == 1570)
        #expect(error.entity == "Book")
        #expect(error.key == "title")
        #expect(error.value == nil)
        #expect(error.rule == .required)
        #expect(error.description == "Book/t1: title has no value, but it is required")
    }

    @Test func missingMandatoryToOne1570() throws {
        let error = try singleFailure { book, _ in try book.setObject(nil, forKey: "publisher") }
        #expect(error.code.rawValue == 1570)
        #expect(error.key == "publisher")
        #expect(error.description == "Book/t1: publisher has no value, but it is required")
    }

    @Test func numberTooLarge1610() throws {
        let error = try singleFailure { book, _ in try book.set("price", 250.5) }
        #expect(error.code.rawValue == 1610)
        #expect(error.value == .double(250.5))
        #expect(error.rule == .maximum(100))
        #expect(error.description == "Book/t1: price 250.5 is above the maximum 100")
    }

    @Test func numberTooSmall1620() throws {
        let error = try singleFailure { book, _ in try book.set("price", 5) }
        #expect(error.code.rawValue == 1620)
        #expect(error.rule.description == "minimum 15")
        #expect(error.description == "Book/t1: price 5 is below the minimum 15")
        let integer = try singleFailure { book, _ in try book.set("pages", 0) }
        #expect(integer.description == "Book/t1: pages 0 is below the minimum 1")
    }

    @Test func dateTooLate1630() throws {
        let error = try singleFailure { book, _ in try book.set("published", Date(timeIntervalSince1970: 1_600_000_000)) }
        #expect(error.code.rawValue == 1630)
        #expect(error.description == "Book/t1: published 2020-09-13T12:26:40Z is after the latest allowed date 2000-01-01T00:00:00Z")
    }

    @Test func dateTooSoon1640() throws {
        let error = try singleFailure { book, _ in try book.set("published", Date(timeIntervalSince1970: -86_400)) }
        #expect(error.code.rawValue == 1640)
        #expect(error.description == "Book/t1: published 1969-12-31T00:00:00Z is before the earliest allowed date 1970-01-01T00:00:00Z")
    }

    @Test func stringTooLong1660() throws {
        let error = try singleFailure { book, _ in try book.set("title", "The Hitchhiker's Guide to the Galaxy") }
        #expect(error.code.rawValue == 1660)
        #expect(error.description == "Book/t1: title \"The Hitchhiker's Guide to the Galaxy\" is 36 characters long, longer than the maximum length 20")
        let binary = try singleFailure { book, _ in try book.set("cover", Data([1, 2, 3, 4, 5])) }
        #expect(binary.code.rawValue == 1660)
        #expect(binary.description == "Book/t1: cover <5 bytes: 0102030405> is 5 bytes long, longer than the maximum length 4")
    }

    @Test func stringTooShort1670() throws {
        let error = try singleFailure { book, _ in try book.set("title", "D") }
        #expect(error.code.rawValue == 1670)
        #expect(error.description == "Book/t1: title \"D\" is 1 character long, shorter than the minimum length 2")
    }

    @Test func patternMismatch1680() throws {
        let error = try singleFailure { book, _ in try book.set("isbn", "9780441x") }
        #expect(error.code.rawValue == 1680)
        #expect(error.rule == .pattern("[0-9]{3}-[0-9]+"))
        #expect(error.description == "Book/t1: isbn \"9780441x\" does not match the pattern [0-9]{3}-[0-9]+")
        // The whole string must match, as MATCHES does: a matching prefix is not enough.
        let prefix = try singleFailure { book, _ in try book.set("isbn", "978-0441x") }
        #expect(prefix.code.rawValue == 1680)
    }

    @Test func tooFewObjects1580() throws {
        let error = try singleFailure { book, _ in
            try book.remove(try #require(try book.objects(forKey: "authors").first), fromKey: "authors")
        }
        #expect(error.code.rawValue == 1580)
        #expect(error.value == .integer(1))
        #expect(error.description == "Book/t1: authors holds 1 object, fewer than the minimum 2")
        // A non-optional to-many enforces its minimum even when empty.
        let empty = try singleFailure { book, _ in try book.setObjects([], forKey: "chapters") }
        #expect(empty.code.rawValue == 1580)
        #expect(empty.description == "Book/t1: chapters holds 0 objects, fewer than the minimum 1")
    }

    @Test func anEmptyNonOptionalToManyWithoutAMinimumIsValid() throws {
        // As in stores Core Data wrote: non-optional means "not nil", and a to-many is a set.
        let model = try ManagedObjectModel {
            EntityDescription("Client") {
                RelationshipDescription("trusted", to: "Client", inverse: "trustedBy", toMany: true).required()
                RelationshipDescription("trustedBy", to: "Client", inverse: "trusted", toMany: true).required()
            }
        }
        let (context, _) = try F.newContext(model)
        _ = try context.insert("Client")
        try context.save()
        #expect(!context.hasChanges)
    }

    @Test func anEmptyOptionalToManyIgnoresItsMinimum() throws {
        let (context, _) = try F.newContext(try F.rulesModel())
        let book = try F.validBook(context)
        try book.setObjects([], forKey: "authors")
        try context.save()
        #expect(!context.hasChanges)
    }

    @Test func tooManyObjects1590() throws {
        let error = try singleFailure { book, context in
            for _ in 0..<2 { try book.add(try context.insert("Author"), toKey: "authors") }
        }
        #expect(error.code.rawValue == 1590)
        #expect(error.description == "Book/t1: authors holds 4 objects, more than the maximum 3")
    }

    @Test func deleteDenied1600() throws {
        let (context, _) = try F.newContext(try F.rulesModel())
        let book = try F.validBook(context)
        try context.save()
        let publisher = try #require(try book.object(forKey: "publisher"))
        try context.delete(publisher)
        let failures = try F.failures { try context.save() }
        #expect(failures.count == 1)
        let error = try #require(failures.first)
        #expect(error.code.rawValue == 1600)
        #expect(error.objectID == publisher.objectID)
        #expect(error.relatedObjects == [book.objectID])
        #expect(error.description == "Publisher/p1: cannot be deleted while books still holds Book/p1 (delete rule Deny)")
    }

    @Test func customRule1550() throws {
        final class Strict: ManagedObject {
            override func validateValue(_ value: AttributeValue?, forKey key: String) throws {
                try super.validateValue(value, forKey: key)
                if key == "note", value?.stringValue?.contains("TODO") == true {
                    throw ValidationError(self, key: key, value: value, reason: "notes must not contain TODO")
                }
            }
        }
        let (context, _) = try F.newContext(try F.rulesModel())
        context.register(Strict.self, forEntity: "Book")
        let book = try F.validBook(context)
        try book.set("note", "TODO: write")
        let failures = try F.failures { try context.save() }
        #expect(failures.map(\.code.rawValue) == [1550])
        #expect(failures.first?.description == "Book/t1: note \"TODO: write\" is not valid: notes must not contain TODO")
    }

    @Test func severalFailuresAggregateAs1560WithEveryDetail() throws {
        let (context, _) = try F.newContext(try F.rulesModel())
        let book = try F.validBook(context)
        try book.set("price", 5)
        try book.setValue(nil, forKey: "title")
        let other = try F.validBook(context)
        try other.set("isbn", "nope")
        do {
            try context.save()
            Issue.record("the save should have failed")
        } catch let failure as MultipleValidationErrors {
            #expect(failure.code.rawValue == 1560)
            #expect(failure.errors.map(\.code.rawValue) == [1570, 1620, 1680])
            #expect(failure.errors.map(\.objectID) == [book.objectID, book.objectID, other.objectID])
            #expect(failure.description == """
                3 validation errors:
                  Book/t1: title has no value, but it is required
                  Book/t1: price 5 is below the minimum 15
                  Book/t6: isbn "nope" does not match the pattern [0-9]{3}-[0-9]+
                """)
        }
        // One object's own check aggregates too.
        #expect(throws: MultipleValidationErrors.self) { try book.validateForInsert() }
    }

    @Test func uniquenessConflictWithAStoredObject133021() throws {
        let (context, _) = try F.newContext(try F.rulesModel())
        let first = try F.validBook(context, isbn: "978-1")
        try context.save()
        let second = try F.validBook(context, isbn: "978-1")
        do {
            try context.save()
            Issue.record("the save should have failed")
        } catch let conflict as ConstraintConflictError {
            #expect(conflict.code.rawValue == 133021)
            let error = try #require(conflict.conflicts.first)
            #expect(conflict.conflicts.count == 1)
            #expect(error.objectID == second.objectID)
            #expect(error.relatedObjects == [first.objectID])
            #expect(error.key == "isbn")
            #expect(error.value == "978-1")
            #expect(error.description == "Book/t6: isbn \"978-1\" is not unique: Book/p1 has the same value (uniqueness constraint on isbn)")
        }
        // Changing the stored object's value away from it resolves the conflict.
        try first.set("isbn", "978-2")
        try context.save()
        #expect(try context.fetch("Book").count == 2)
    }

    @Test func uniquenessConflictAmongPendingObjects() throws {
        let (context, _) = try F.newContext(try F.rulesModel())
        let a = try F.validBook(context, isbn: "978-3")
        let b = try F.validBook(context, isbn: "978-3")
        _ = try F.validBook(context)   // no isbn: nil never conflicts
        _ = try F.validBook(context)
        let failures = try F.failures { try context.save() }
        #expect(failures.map(\.objectID) == [a.objectID, b.objectID])
        #expect(failures.map(\.relatedObjects) == [[b.objectID], [a.objectID]])
        #expect(failures.allSatisfy { $0.code == .constraintConflict })
        // A deleted stored object gives its value up.
        try context.delete(b)
        try context.save()
        try context.delete(a)
        let replacement = try F.validBook(context, isbn: "978-3")
        try context.save()
        #expect(replacement.objectID.primaryKey != nil)
    }

    @Test func siblingSubEntitiesShareAnInheritedConstraint() throws {
        let model = try ManagedObjectModel {
            EntityDescription("Item", abstract: true) {
                AttributeDescription("code", .string)
                Unique("code")
            }
            EntityDescription("Tool", parent: "Item") { AttributeDescription("weight", .double) }
            EntityDescription("Part", parent: "Item") { AttributeDescription("size", .integer32) }
        }
        let (context, _) = try F.newContext(model)
        let tool = try context.insert("Tool")
        try tool.set("code", "X1")
        let part = try context.insert("Part")
        try part.set("code", "X1")
        let failures = try F.failures { try context.save() }
        #expect(failures.map(\.description) == [
            "Tool/t1: code \"X1\" is not unique: Part/t2 has the same value (uniqueness constraint on code)",
            "Part/t2: code \"X1\" is not unique: Tool/t1 has the same value (uniqueness constraint on code)",
        ])
        try part.set("code", "X2")
        try context.save()
        let copy = try context.insert("Part")
        try copy.set("code", "X1")
        #expect(try F.failures { try context.save() }.map(\.relatedObjects) == [[tool.objectID]])
    }

    @Test func codesAreCoreDatas() {
        #expect(ValidationErrorCode.allCases.map(\.rawValue) == [1550, 1560, 1570, 1580, 1590, 1600, 1610, 1620, 1630, 1640, 1660, 1670, 1680, 133000, 133021])
        #expect(ValidationErrorCode.deleteDenied.coreDataName == "NSValidationRelationshipDeniedDeleteError")
        #expect(ValidationErrorCode.multipleErrors.coreDataName == "NSValidationMultipleErrorsError")
    }
}
