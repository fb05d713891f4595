import Foundation
import Testing
@testable import GraphStore

extension MigrationTests {
    /// The changes Core Data's inferred mapping makes, one per test, on small built models.
    @Suite struct InferredMappingTests {
        typealias F = MigrationFixtures

        private func book(_ attributes: AttributeDescription...) -> EntityDescription {
            EntityDescription("Book", attributes: attributes)
        }

        @Test func identicalModelsKeepEverything() throws {
            let model = try Fixtures.bookStoreModel()
            let mapping = InferredMapping(from: model, to: model)
            #expect(mapping.refusals.isEmpty && mapping.removedEntities.isEmpty && mapping.notes.isEmpty)
            for entity in mapping.entities {
                #expect(entity.source == entity.name && entity.match == .sameIdentifier && !entity.changesTable && !entity.changesParent)
                #expect(entity.attributes.allSatisfy { $0.source == $0.name && $0.changes.isEmpty })
                #expect(entity.relationships.allSatisfy { $0.source == $0.name && $0.changes.isEmpty && !$0.changesStorage })
                #expect(entity.removedProperties.isEmpty)
            }
        }

        @Test func addedAttributesStartEmptyOrAtTheirDefault() throws {
            let v1 = try ManagedObjectModel(entities: [book(AttributeDescription("title", .string))])
            let v2 = try ManagedObjectModel(entities: [book(
                AttributeDescription("title", .string), AttributeDescription("subtitle", .string),
                AttributeDescription("stock", .integer32, optional: false, default: 5))])
            let entity = try #require(InferredMapping(from: v1, to: v2).entity(named: "Book"))
            let subtitle = try #require(entity.attributes.first { $0.name == "subtitle" })
            let stock = try #require(entity.attributes.first { $0.name == "stock" })
            #expect(subtitle.source == nil && subtitle.fill == nil)
            // A required attribute with a default is fine: existing objects get the default.
            #expect(stock.source == nil && stock.fill == .integer(5))
            #expect(InferredMapping(from: v1, to: v2).refusals.isEmpty)
        }

        @Test func removedAttributesAreListed() throws {
            let v1 = try ManagedObjectModel(entities: [book(AttributeDescription("title", .string), AttributeDescription("author", .string))])
            let v2 = try ManagedObjectModel(entities: [book(AttributeDescription("title", .string))])
            let entity = try #require(InferredMapping(from: v1, to: v2).entity(named: "Book"))
            #expect(entity.removedProperties == [InferredMapping.RemovedProperty(name: "author", kind: "String attribute", declaredBy: "Book")])
        }

        @Test func renamingIdentifierRenamesAnAttribute() throws {
            let v1 = try ManagedObjectModel(entities: [book(AttributeDescription("color", .string))])
            let v2 = try ManagedObjectModel(entities: [book(F.renamed(AttributeDescription("hexColor", .string), from: "color"))])
            let attribute = try #require(InferredMapping(from: v1, to: v2).entity(named: "Book")?.attributes.first)
            #expect(attribute.source == "color" && attribute.match == .sameIdentifier && attribute.changes == [.renamed(from: "color")])
            #expect(InferredMapping(from: v1, to: v2).entity(named: "Book")?.removedProperties.isEmpty == true)
        }

        /// A rename in v2 and another in v3 that keep one (canonical) identifier map both
        /// 2→3 and 1→3, as Apple's guide says.
        @Test func canonicalIdentifiersMapAcrossSeveralRenames() throws {
            let v1 = try ManagedObjectModel(entities: [book(AttributeDescription("a", .string))])
            let v2 = try ManagedObjectModel(entities: [book(F.renamed(AttributeDescription("b", .string), from: "a"))])
            let v3 = try ManagedObjectModel(entities: [book(F.renamed(AttributeDescription("c", .string), from: "a"))])
            for (source, label) in [(v1, "1→3"), (v2, "2→3")] {
                let attribute = try #require(InferredMapping(from: source, to: v3).entity(named: "Book")?.attributes.first)
                #expect(attribute.match == .sameIdentifier, "\(label)")
                #expect(attribute.source == (label == "1→3" ? "a" : "b"), "\(label)")
            }
        }

        /// Identifiers chained version by version (each naming the previous name) pair in
        /// GraphStore's second pass, marked as resting on an uncertain rule.
        @Test func chainedIdentifiersPairMarkedUncertain() throws {
            let v2 = try ManagedObjectModel(entities: [book(F.renamed(AttributeDescription("b", .string), from: "a"))])
            let v3 = try ManagedObjectModel(entities: [book(F.renamed(AttributeDescription("c", .string), from: "b"))])
            let attribute = try #require(InferredMapping(from: v2, to: v3).entity(named: "Book")?.attributes.first)
            #expect(attribute.source == "b" && attribute.match == .renamingIdentifierNamesSource)
        }

        @Test func renamingIdentifierRenamesAnEntityAndItsTable() throws {
            let v1 = try Fixtures.bookStoreModel()
            var entities = v1.entities
            let index = try #require(entities.firstIndex { $0.name == "Book" })
            entities[index] = F.renamed(entities[index], from: "Book")
            entities[index].name = "Publication"
            for i in entities.indices {
                for r in entities[i].relationships.indices where entities[i].relationships[r].destination == "Book" {
                    entities[i].relationships[r].destination = "Publication"
                }
            }
            let v2 = try ManagedObjectModel(entities: entities)
            let mapping = InferredMapping(from: v1, to: v2)
            let publication = try #require(mapping.entity(named: "Publication"))
            #expect(publication.source == "Book" && publication.match == .sameIdentifier)
            #expect(publication.sourceTable == "ZBOOK" && publication.table == "ZPUBLICATION" && publication.changesTable)
            #expect(publication.sourceNumber == 1 && publication.number == 3)
            #expect(mapping.removedEntities.isEmpty && mapping.refusals.isEmpty)
            // Relationships to the renamed entity follow it.
            let books = try #require(mapping.entity(named: "BookCategory")?.relationships.first)
            #expect(books.changes.isEmpty && books.source == "books")
        }

        @Test func requiredWithADefaultFillsEmptyValues() throws {
            let v1 = try ManagedObjectModel(entities: [book(AttributeDescription("price", .double))])
            let v2 = try ManagedObjectModel(entities: [book(AttributeDescription("price", .double, optional: false, default: 0))])
            let mapping = InferredMapping(from: v1, to: v2)
            let price = try #require(mapping.entity(named: "Book")?.attributes.first)
            #expect(price.changes == [.becameRequired] && price.fill == .integer(0))
            #expect(mapping.refusals.isEmpty)
            let back = try #require(InferredMapping(from: v2, to: v1).entity(named: "Book")?.attributes.first)
            #expect(back.changes == [.becameOptional] && back.fill == nil)
        }

        @Test func toOneBecomesToManyAndBack() throws {
            let v1 = try ManagedObjectModel {
                EntityDescription("Person") { RelationshipDescription("car", to: "Car", inverse: "owner") }
                EntityDescription("Car") { RelationshipDescription("owner", to: "Person", inverse: "car") }
            }
            let v2 = try ManagedObjectModel {
                EntityDescription("Person") { RelationshipDescription("car", to: "Car", inverse: "owner", toMany: true) }
                EntityDescription("Car") { RelationshipDescription("owner", to: "Person", inverse: "car") }
            }
            let forward = try #require(InferredMapping(from: v1, to: v2).entity(named: "Person")?.relationships.first)
            #expect(forward.changes == [.becameToMany])
            #expect(forward.sourceStorage == .foreignKey && forward.storage == .inverseForeignKey && forward.changesStorage)
            let backward = try #require(InferredMapping(from: v2, to: v1).entity(named: "Person")?.relationships.first)
            #expect(backward.changes == [.becameToOne] && backward.storage == .foreignKey)
            #expect(InferredMapping(from: v2, to: v1).refusals.isEmpty)
        }

        /// A one-to-many that becomes many-to-many moves into a new join table.
        @Test func manyToManyGetsANewJoinTable() throws {
            let v1 = try ManagedObjectModel {
                EntityDescription("Tag") { RelationshipDescription("books", to: "Book", inverse: "tag", toMany: true) }
                EntityDescription("Book") { RelationshipDescription("tag", to: "Tag", inverse: "books") }
            }
            let v2 = try ManagedObjectModel {
                EntityDescription("Tag") { RelationshipDescription("books", to: "Book", inverse: "tag", toMany: true) }
                EntityDescription("Book") { RelationshipDescription("tag", to: "Tag", inverse: "books", toMany: true) }
            }
            let mapping = InferredMapping(from: v1, to: v2)
            let books = try #require(mapping.entity(named: "Tag")?.relationships.first)
            #expect(books.sourceStorage == .inverseForeignKey && books.storage == .joinTable)
            let tag = try #require(mapping.entity(named: "Book")?.relationships.first)
            #expect(tag.sourceStorage == .foreignKey && tag.storage == .joinTable && tag.changes == [.becameToMany])
            let text = MigrationStepText.describe(tag) ?? ""
            #expect(text.contains("a new join table"), "\(text)")
        }

        @Test func unorderedBecomesOrderedAndBack() throws {
            let v1 = try Fixtures.bookStoreModel()
            var entities = v1.entities
            let index = try #require(entities.firstIndex { $0.name == "Book" })
            let pages = try #require(entities[index].relationships.firstIndex { $0.name == "pages" })
            entities[index].relationships[pages].isOrdered = false
            let unordered = try ManagedObjectModel(entities: entities)
            let toOrdered = try #require(InferredMapping(from: unordered, to: v1).entity(named: "Book")?.relationships.first { $0.name == "pages" })
            #expect(toOrdered.changes == [.becameOrdered] && toOrdered.sourceIsOrdered == false && toOrdered.isOrdered && toOrdered.changesStorage)
            let toUnordered = try #require(InferredMapping(from: v1, to: unordered).entity(named: "Book")?.relationships.first { $0.name == "pages" })
            #expect(toUnordered.changes == [.becameUnordered] && toUnordered.changesStorage)
        }

        @Test func relationshipsAddedAndRemoved() throws {
            let v1 = try ManagedObjectModel {
                EntityDescription("Book") { AttributeDescription("title", .string) }
                EntityDescription("Tag") { AttributeDescription("name", .string) }
            }
            let v2 = try ManagedObjectModel {
                EntityDescription("Book") { RelationshipDescription("tags", to: "Tag", inverse: "books", toMany: true) }
                EntityDescription("Tag") {
                    AttributeDescription("name", .string)
                    RelationshipDescription("books", to: "Book", inverse: "tags", toMany: true)
                }
            }
            let mapping = InferredMapping(from: v1, to: v2)
            let tags = try #require(mapping.entity(named: "Book")?.relationships.first)
            #expect(tags.source == nil && tags.storage == .joinTable)
            #expect(mapping.entity(named: "Book")?.removedProperties.map(\.name) == ["title"])
            let back = InferredMapping(from: v2, to: v1)
            #expect(back.entity(named: "Tag")?.removedProperties == [InferredMapping.RemovedProperty(name: "books", kind: "to-many relationship to Book", declaredBy: "Tag")])
            #expect(mapping.refusals.isEmpty && back.refusals.isEmpty)
        }

        @Test func entitiesAddedAndRemoved() throws {
            let v1 = try ManagedObjectModel { EntityDescription("Book") { AttributeDescription("title", .string) }; EntityDescription("Draft") { AttributeDescription("text", .string) } }
            let v2 = try ManagedObjectModel { EntityDescription("Book") { AttributeDescription("title", .string) }; EntityDescription("Author") { AttributeDescription("name", .string) } }
            let mapping = InferredMapping(from: v1, to: v2).counted(["Book": 3, "Draft": 2])
            let author = try #require(mapping.entity(named: "Author"))
            #expect(author.isAdded && author.objectCount == 0 && author.attributes.allSatisfy { $0.source == nil })
            #expect(mapping.removedEntities == [InferredMapping.RemovedEntity(name: "Draft", objectCount: 2)])
            #expect(mapping.entity(named: "Book")?.objectCount == 3)
        }

        /// Entities leave a hierarchy, get a new parent, and properties move up: all inferred.
        @Test func hierarchyChangesAreInferred() throws {
            let v1 = try ManagedObjectModel {
                EntityDescription("Vehicle") { AttributeDescription("wheels", .integer16) }
                EntityDescription("Car", parent: "Vehicle") { AttributeDescription("plate", .string) }
                EntityDescription("Boat", parent: "Vehicle") { AttributeDescription("plate", .string) }
            }
            // Boat leaves the hierarchy; `plate` moves up to Vehicle for Car.
            let v2 = try ManagedObjectModel {
                EntityDescription("Vehicle") {
                    AttributeDescription("wheels", .integer16)
                    AttributeDescription("plate", .string)
                }
                EntityDescription("Car", parent: "Vehicle") {}
                EntityDescription("Boat") { AttributeDescription("plate", .string) }
            }
            let mapping = InferredMapping(from: v1, to: v2)
            #expect(mapping.refusals.isEmpty)
            let boat = try #require(mapping.entity(named: "Boat"))
            #expect(boat.changesParent && boat.changesTable && boat.sourceTable == "ZVEHICLE" && boat.table == "ZBOAT")
            let plate = try #require(mapping.entity(named: "Car")?.attributes.first { $0.name == "plate" })
            #expect(plate.changes == [.movedInHierarchy(from: "Car", to: "Vehicle")])
            // A new parent above one old hierarchy is fine too.
            let v3 = try ManagedObjectModel {
                EntityDescription("Thing") { AttributeDescription("wheels", .integer16) }
                EntityDescription("Vehicle", parent: "Thing") { AttributeDescription("plate", .string) }
                EntityDescription("Car", parent: "Vehicle") {}
                EntityDescription("Boat") { AttributeDescription("plate", .string) }
            }
            let up = InferredMapping(from: v2, to: v3)
            #expect(up.refusals.isEmpty)
            #expect(up.entity(named: "Vehicle")?.changesParent == true && up.entity(named: "Thing")?.isAdded == true)
            #expect(up.entity(named: "Vehicle")?.attributes.first { $0.name == "wheels" }?.changes == [.movedInHierarchy(from: "Vehicle", to: "Thing")])
        }

        @Test func aNewUniquenessConstraintIsNoted() throws {
            let v1 = try ManagedObjectModel { EntityDescription("Book") { AttributeDescription("isbn", .string) } }
            let v2 = try ManagedObjectModel {
                EntityDescription("Book") {
                    AttributeDescription("isbn", .string)
                    Unique("isbn")
                }
            }
            let notes = try #require(InferredMapping(from: v1, to: v2).entity(named: "Book")?.notes)
            #expect(notes.count == 1 && notes[0].contains("134111"))
            #expect(InferredMapping(from: v2, to: v2).entity(named: "Book")?.notes.isEmpty == true)
        }

        /// Same name, another identifier: Core Data's rule drops the old element and adds a
        /// new one; GraphStore follows it and says so.
        @Test func sameNameWithAnotherIdentifierIsDroppedAndNoted() throws {
            let v1 = try ManagedObjectModel(entities: [book(AttributeDescription("isSilenced", .boolean))])
            let v2 = try ManagedObjectModel(entities: [book(F.renamed(AttributeDescription("isSilenced", .boolean), from: "mutedStatus"), AttributeDescription("note", .string))])
            let entity = try #require(InferredMapping(from: v1, to: v2).entity(named: "Book"))
            #expect(entity.attributes.first?.source == nil)
            // Models that differ in renaming identifiers only are one model to Core Data: by name.
            let twin = try ManagedObjectModel(entities: [book(F.renamed(AttributeDescription("isSilenced", .boolean), from: "mutedStatus"))])
            #expect(InferredMapping(from: v1, to: twin).entity(named: "Book")?.attributes.first?.source == "isSilenced")
            #expect(entity.removedProperties.map(\.name) == ["isSilenced"])
            #expect(entity.notes.count == 1 && entity.notes[0].contains("mutedStatus"))
        }

        @Test func unrelatedModelsAreFlagged() throws {
            let v1 = try ManagedObjectModel { EntityDescription("Book") { AttributeDescription("title", .string) } }
            let v2 = try ManagedObjectModel { EntityDescription("Song") { AttributeDescription("title", .string) } }
            let mapping = InferredMapping(from: v1, to: v2)
            #expect(mapping.refusals.isEmpty && mapping.notes.count == 1 && mapping.notes[0].contains("no entity of"))
        }
    }
}
