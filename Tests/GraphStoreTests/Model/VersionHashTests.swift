import Foundation
import Testing
@testable import GraphStore
@testable import GraphStoreModel

/// Core Data's version-hash construction on models whose hashes are known from stores Core
/// Data wrote (the values are copied from those stores' metadata, so no corpus is needed).
@Suite struct VersionHashTests {
    private func hex(_ data: Data?) -> String { (data ?? Data()).map { String(format: "%02x", $0) }.joined() }

    /// The worked example of docs/version-hashes.md: jeffreybergier's `Example_v1.0.0.sqlite`.
    @Test func oneAttributeEntityMatchesItsStore() throws {
        let attribute = AttributeDescription("v1_0_0_name", .string)
        let part = VersionHashBuffer.propertyPart(name: attribute.name, isOptional: true, isTransient: false, modifier: nil)
        #expect(hex(part).hasPrefix("87951f4d") && hex(part).hasSuffix("1bafac"))
        #expect(hex(attribute.versionHash).hasPrefix("d1b913ef") && hex(attribute.versionHash).hasSuffix("590007"))
        let model = try ManagedObjectModel(entities: [EntityDescription("BasicEntity", attributes: [attribute])])
        #expect(hex(model.entityVersionHashes["BasicEntity"]) == "b26d7c6c22b533d5a7015b6a77545c1bb29ee7bc91db1aead8c00d80df62c92c")
        #expect(model.unverifiedVersionHashes.isEmpty)
    }

    /// The Apress BookStore `seed.sqlite` (framework 519): to-one and to-many relationships
    /// with inverses, an ordered to-many; delete rules and a fetched property do not count.
    @Test func bookStoreMatchesTheApressSeed() throws {
        var entities = try Fixtures.bookStoreModel().entities
        entities[0].fetchedProperties = [FetchedPropertyDescription(name: "bargainBooks", entity: "Book", predicate: "price < 12")]
        let hashes = try ManagedObjectModel(entities: entities).entityVersionHashes
        #expect(hex(hashes["Book"]) == "359939b7b3dde592c339401ae51f89a9df0b53f1c902630e7d1794205b1f5eb8")
        #expect(hex(hashes["BookCategory"]) == "1f212e15f97a54ac0c2dcd2485daafbb5670f8a0b19b25a70f1d56ad7d9c3361")
        #expect(hex(hashes["Page"]) == "bd0e43e58a6467351a6017a53804ae2a6095a0e39ecf359e451089080f73e3d4")
    }

    /// alemar11's `SampleModel_V1.sqlite` (framework 1044): two levels of inheritance,
    /// uniqueness constraints of one and two properties, a value preserved on deletion,
    /// required attributes, transient attributes left out; and the digest of the four.
    static func sampleModel() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Car") {
                AttributeDescription("color", .transformable)
                AttributeDescription("currentDrivingSpeed", .integer64).transient()
                AttributeDescription("maker", .string)
                AttributeDescription("markedForDeletionAsOf", .date)
                AttributeDescription("model", .string)
                AttributeDescription("numberPlate", .string).required()
                RelationshipDescription("owner", to: "Person", inverse: "cars")
                Unique("numberPlate")
            }
            EntityDescription("ExpensiveSportCar", parent: "SportCar") {
                AttributeDescription("isLimitedEdition", .boolean)
            }
            EntityDescription("Person") {
                AttributeDescription("firstName", .string)
                Self.preserved(AttributeDescription("id", .uuid).required())
                AttributeDescription("isDriving", .boolean).required().transient()
                AttributeDescription("lastName", .string)
                AttributeDescription("updatedAt", .date).required()
                RelationshipDescription("cars", to: "Car", inverse: "owner", toMany: true)
                Unique("firstName", "lastName")
            }
            EntityDescription("SportCar", parent: "Car")
        }
    }

    private static func preserved(_ attribute: AttributeDescription) -> AttributeDescription {
        var copy = attribute
        copy.preservesValueInHistoryOnDeletion = true
        return copy
    }

    @Test func inheritanceConstraintsAndPreservationMatchTheSampleStore() throws {
        let hashes = try Self.sampleModel().entityVersionHashes
        #expect(hex(hashes["Car"]) == "9e555529072158220d1bacd2f80a3dad4919f74a32aa8be9ee22a6a7b4126c8f")
        #expect(hex(hashes["SportCar"]) == "514ec1907a568299f9fb6851106516136f0755f45fa53a823a0e4d44013d5313")
        #expect(hex(hashes["ExpensiveSportCar"]) == "3dc7e32b1be45b5a4c795ac9af3e1d10aa7222d3c69ae805bbeb4408bdeba480")
        #expect(hex(hashes["Person"]) == "164268551b45108ae763aa2ba61ff32d32d32323850987c3e21607c8da44b72b")
        #expect(ManagedObjectModel.versionHashesDigest(hashes)
            == "fACvwxty0QWritKFX3/LTtXZvI64UnFcRtP6qcjW1Yl0owr+rH+SpCvzy/uDYRpknMXbgacd3srn9wmE2KkL8Q==")
        #expect(try Self.sampleModel().unverifiedVersionHashes.isEmpty)
    }

    @Test func eachInputChangesTheHashAndWhatIsNotAnInputDoesNot() throws {
        let base = try Self.sampleModel()
        let hashes = base.computedVersionHashes
        func changed(_ change: (inout [EntityDescription]) -> Void) throws -> [String: Data] {
            var entities = base.entities
            change(&entities)
            return try ManagedObjectModel(entities: entities).computedVersionHashes
        }
        // Not inputs: delete rule, class name, user info, default value, index flag.
        let same = try changed {
            $0[0].relationships[0].deleteRule = .cascade
            $0[0].className = "CarObject"
            $0[0].userInfo = ["k": "v"]
            $0[0].attributes[2].defaultValue = .string("Tesla")
            $0[0].attributes[2].isIndexed = true
        }
        #expect(same == hashes)
        // A parent's change reaches its sub-entities but not the other way round.
        let parentChanged = try changed { $0[0].attributes[2].versionHashModifier = "2" }
        #expect(parentChanged["Car"] != hashes["Car"] && parentChanged["ExpensiveSportCar"] != hashes["ExpensiveSportCar"])
        #expect(parentChanged["Person"] == hashes["Person"])
        let childChanged = try changed { $0[1].attributes[0].isOptional = false }
        #expect(childChanged["ExpensiveSportCar"] != hashes["ExpensiveSportCar"] && childChanged["Car"] == hashes["Car"])
        // A to-one's minimum counts even though it does not govern the to-one.
        let minimum = try changed { $0[0].relationships[0].minCount = 1 }
        #expect(minimum["Car"] != hashes["Car"])
        // Transient properties do not count.
        let transient = try changed { $0[2].attributes.append(AttributeDescription("mood", .string).transient()) }
        #expect(transient == hashes)
    }

    @Test func knownHashesTakePrecedenceOverComputedOnes() throws {
        var model = try Self.sampleModel()
        let computed = model.computedVersionHashes
        model.knownVersionHashes = ["Person": Data(repeating: 7, count: 32), "Gone": Data(repeating: 1, count: 32)]
        let hashes = model.entityVersionHashes
        #expect(hashes["Person"] == Data(repeating: 7, count: 32))
        #expect(hashes["Car"] == computed["Car"])
        #expect(hashes["Gone"] == nil)
        #expect(model.computedVersionHashes == computed)
    }

    @Test func featuresNoStoreConfirmsMarkTheHashUnverified() throws {
        let model = try ManagedObjectModel {
            EntityDescription("Invoice") {
                AttributeDescription("total", .decimal)
                AttributeDescription("number", .string)
                AttributeDescription("series", .string)
                Unique("number")
                Unique("series")
            }
            EntityDescription("CreditNote", parent: "Invoice") {}
            EntityDescription("Customer") {
                AttributeDescription("name", .string)
                AttributeDescription("Zone", .string)
                RelationshipDescription("invoices", to: "Invoice", toMany: true).count(0...5)
            }
            EntityDescription("Café") {
                AttributeDescription("name", .string)
            }
            EntityDescription("Plain") {
                AttributeDescription("name", .string)
            }
        }
        let reasons = model.unverifiedVersionHashes
        #expect(reasons["Invoice"] == "2 uniqueness constraints; total is a Decimal attribute")
        #expect(reasons["CreditNote"] == "total is a Decimal attribute; its parent Invoice's hash is unverified")
        #expect(reasons["Customer"] == "invoices has a maximum count of 5; property names whose order depends on letter case")
        #expect(reasons["Café"] == "a name or modifier that is not ASCII")
        #expect(reasons["Plain"] == nil)
        var known = model
        known.knownVersionHashes = ["Invoice": Data(repeating: 0, count: 32)]
        #expect(known.unverifiedVersionHashes["Invoice"] == nil && known.unverifiedVersionHashes["CreditNote"] != nil)
    }

    @Test func entityAndRelationshipModifiersAndDerivedAttributesAreUnverified() throws {
        var entity = EntityDescription("Tag", attributes: [AttributeDescription("name", .string)])
        entity.versionHashModifier = "v2"
        var count = AttributeDescription("count", .integer64)
        count.derivationExpression = "items.@count"
        var blob = AttributeDescription("blob", .binaryData)
        blob.allowsExternalBinaryDataStorage = true
        blob.preservesValueInHistoryOnDeletion = true
        var items = RelationshipDescription("items", to: "Tag", toMany: true)
        items.versionHashModifier = "x"
        let other = EntityDescription("Other", attributes: [count, blob], relationships: [items])
        let model = try ManagedObjectModel(entities: [entity, other])
        #expect(model.unverifiedVersionHashes["Tag"] == "an entity version hash modifier")
        #expect(model.unverifiedVersionHashes["Other"]
            == "count is a derived attribute; blob both allows external storage and preserves its value on deletion; relationship items has a version hash modifier")
    }
}
