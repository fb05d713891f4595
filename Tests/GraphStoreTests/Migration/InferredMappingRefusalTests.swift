import Foundation
import Testing
@testable import GraphStore

extension MigrationTests {
    /// What Core Data's inferred mapping refuses: each refusal with its code and a sentence
    /// naming the entity, the property and the change.
    @Suite struct InferredMappingRefusalTests {
        typealias F = MigrationFixtures

        /// The single refusal of the mapping from `v1` to `v2`.
        private func refusal(_ v1: ManagedObjectModel, _ v2: ManagedObjectModel) throws -> MigrationRefusal {
            let refusals = InferredMapping(from: v1, to: v2).refusals
            #expect(refusals.count == 1, "\(refusals)")
            return try #require(refusals.first)
        }

        private func model(_ entities: EntityDescription...) throws -> ManagedObjectModel {
            try ManagedObjectModel(entities: entities)
        }

        @Test func typeChangesNeedAMappingModel() throws {
            let refusal = try refusal(
                model(EntityDescription("Book", attributes: [AttributeDescription("price", .string)])),
                model(EntityDescription("Book", attributes: [AttributeDescription("price", .integer32)])))
            #expect(refusal.code == .mappingModelNeeded && refusal.code.rawValue == 134140)
            #expect(refusal.entity == "Book" && refusal.property == "price" && !refusal.dependsOnObjects)
            #expect(refusal.description.hasPrefix("Book.price: changes type from String to Integer 32"))
            #expect(refusal.description.hasSuffix("(134140)"))
        }

        @Test func requiredWithoutADefaultFailsForExistingObjects() throws {
            let v1 = try model(EntityDescription("Book", attributes: [AttributeDescription("title", .string)]))
            let v2 = try model(EntityDescription("Book", attributes: [AttributeDescription("title", .string).required()]))
            let refusal = try refusal(v1, v2)
            #expect(refusal.code == .migrationFails && refusal.code.rawValue == 134110 && refusal.dependsOnObjects)
            #expect(refusal.place == "Book.title" && refusal.reason.contains("becomes required and has no default value"))
            // Counting lifts it where there are no objects, and keeps it where there are.
            let empty = InferredMapping(from: v1, to: v2).counted(["Book": 0])
            #expect(empty.refusals.isEmpty && empty.notes.count == 1 && empty.notes[0].contains("no Book object"))
            #expect(InferredMapping(from: v1, to: v2).counted(["Book": 2]).refusals == [refusal])
        }

        @Test func aNewRequiredAttributeWithoutADefaultFails() throws {
            let refusal = try refusal(
                model(EntityDescription("Book", attributes: [AttributeDescription("title", .string)])),
                model(EntityDescription("Book", attributes: [AttributeDescription("title", .string), AttributeDescription("isbn", .string).required()])))
            #expect(refusal.code == .migrationFails && refusal.place == "Book.isbn" && refusal.reason.contains("new required attribute"))
        }

        /// A new entity has no objects, so its required attributes ask nothing.
        @Test func aNewEntityMayHaveRequiredAttributes() throws {
            let v1 = try model(EntityDescription("Book", attributes: [AttributeDescription("title", .string)]))
            let v2 = try model(
                EntityDescription("Book", attributes: [AttributeDescription("title", .string)]),
                EntityDescription("Author", attributes: [AttributeDescription("name", .string).required()]))
            #expect(InferredMapping(from: v1, to: v2).refusals.isEmpty)
        }

        @Test func aRelationshipThatNowNeedsADestinationFails() throws {
            let v1 = try ManagedObjectModel {
                EntityDescription("Post") { AttributeDescription("text", .string) }
                EntityDescription("Color") { AttributeDescription("hex", .string) }
            }
            let v2 = try ManagedObjectModel {
                EntityDescription("Post") { RelationshipDescription("color", to: "Color", optional: false); AttributeDescription("text", .string) }
                EntityDescription("Color") { AttributeDescription("hex", .string) }
            }
            let refusal = try refusal(v1, v2)
            #expect(refusal.code == .migrationFails && refusal.place == "Post.color" && refusal.dependsOnObjects)
            // A non-optional to-many asks nothing of an empty set (as Core Data's validation):
            // only a minimum count does.
            let loose = try ManagedObjectModel {
                EntityDescription("Post") { RelationshipDescription("colors", to: "Color", toMany: true, optional: false); AttributeDescription("text", .string) }
                EntityDescription("Color") { AttributeDescription("hex", .string) }
            }
            #expect(InferredMapping(from: v1, to: loose).refusals.isEmpty)
            let strict = try ManagedObjectModel {
                EntityDescription("Post") { RelationshipDescription("colors", to: "Color", toMany: true).minCount(1); AttributeDescription("text", .string) }
                EntityDescription("Color") { AttributeDescription("hex", .string) }
            }
            #expect(try self.refusal(v1, strict).reason.contains("at least 1 destinations"))
        }

        @Test func mergingHierarchiesNeedsAMappingModel() throws {
            let v1 = try model(
                EntityDescription("Car", attributes: [AttributeDescription("plate", .string)]),
                EntityDescription("Boat", attributes: [AttributeDescription("name", .string)]))
            let v2 = try model(
                EntityDescription("Vehicle"),
                EntityDescription("Car", parent: "Vehicle", attributes: [AttributeDescription("plate", .string)]),
                EntityDescription("Boat", parent: "Vehicle", attributes: [AttributeDescription("name", .string)]))
            let refusal = try refusal(v1, v2)
            #expect(refusal.code == .mappingModelNeeded && refusal.entity == "Vehicle" && refusal.property == nil)
            #expect(refusal.reason.contains("cannot merge hierarchies") && refusal.reason.contains("Boat") && refusal.reason.contains("Car"))
        }

        @Test func aDestinationChangedToAnUnrelatedEntityNeedsAMappingModel() throws {
            let v1 = try ManagedObjectModel {
                EntityDescription("Car") { RelationshipDescription("owner", to: "Person") }
                EntityDescription("Person") { AttributeDescription("name", .string) }
                EntityDescription("Company") { AttributeDescription("name", .string) }
            }
            let v2 = try ManagedObjectModel {
                EntityDescription("Car") { RelationshipDescription("owner", to: "Company") }
                EntityDescription("Person") { AttributeDescription("name", .string) }
                EntityDescription("Company") { AttributeDescription("name", .string) }
            }
            let refusal = try refusal(v1, v2)
            #expect(refusal.code == .mappingModelNeeded && refusal.place == "Car.owner" && refusal.reason.contains("from Person"))
            // Widening to an ancestor of the old destination is fine.
            let v3 = try ManagedObjectModel {
                EntityDescription("Car") { RelationshipDescription("owner", to: "Party") }
                EntityDescription("Party") { AttributeDescription("name", .string) }
                EntityDescription("Person", parent: "Party") {}
                EntityDescription("Company") { AttributeDescription("name", .string) }
            }
            let widened = InferredMapping(from: v1, to: v3)
            #expect(widened.refusals.isEmpty)
            #expect(widened.entity(named: "Car")?.relationships.first?.changes == [.destinationChanged(from: "Person", to: "Party")])
        }

        @Test func anAttributeBecomingARelationshipNeedsAMappingModel() throws {
            let v1 = try ManagedObjectModel {
                EntityDescription("Post") { AttributeDescription("color", .string) }
                EntityDescription("Color") { AttributeDescription("hex", .string) }
            }
            let v2 = try ManagedObjectModel {
                EntityDescription("Post") { RelationshipDescription("color", to: "Color") }
                EntityDescription("Color") { AttributeDescription("hex", .string) }
            }
            let refusal = try refusal(v1, v2)
            #expect(refusal.code == .mappingModelNeeded && refusal.place == "Post.color" && refusal.reason.contains("was the attribute color"))
            #expect(try self.refusal(v2, v1).reason.contains("was the relationship color"))
        }

        @Test func ambiguousRenamingIdentifiersNeedAMappingModel() throws {
            let v1 = try model(EntityDescription("Book", attributes: [AttributeDescription("title", .string)]))
            let v2 = try model(EntityDescription("Book", attributes: [
                F.renamed(AttributeDescription("name", .string), from: "title"), F.renamed(AttributeDescription("heading", .string), from: "title"),
            ]))
            let refusals = InferredMapping(from: v1, to: v2).refusals
            #expect(refusals.map(\.place).sorted() == ["Book.heading", "Book.name"])
            #expect(refusals.allSatisfy { $0.code == .mappingModelNeeded && $0.reason.contains("ambiguous") })
        }

        @Test func becomingAbstractFailsForExistingObjects() throws {
            let v1 = try model(EntityDescription("Shape", attributes: [AttributeDescription("name", .string)]))
            let v2 = try model(
                EntityDescription("Shape", abstract: true, attributes: [AttributeDescription("name", .string)]),
                EntityDescription("Circle", parent: "Shape"))
            let refusal = try refusal(v1, v2)
            #expect(refusal.code == .migrationFails && refusal.place == "Shape" && refusal.dependsOnObjects)
            #expect(InferredMapping(from: v1, to: v2).counted(["Shape": 0]).refusals.isEmpty)
        }
    }
}
