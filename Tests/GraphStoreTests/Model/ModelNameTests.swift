import Foundation
import Testing
@testable import GraphStore
@testable import GraphStoreModel

/// Entity, property and fetch index names become SQL names and key paths: a model whose
/// names are not identifiers is refused when it is built, with an error naming the entity,
/// so `--create` never reaches SQLite with DDL it cannot read.
@Suite struct ModelNameTests {
    @Test func identifiersInAnyScriptAreNames() {
        #expect(ModelName.isValid("Book") && ModelName.isValid("feedback") && ModelName.isValid("Café_2") && ModelName.isValid("_x"))
        #expect(!ModelName.isValid("Bo\"ok") && !ModelName.isValid("it's") && !ModelName.isValid("a b"))
        #expect(!ModelName.isValid("a.b") && !ModelName.isValid("2nd") && !ModelName.isValid("a-b") && !ModelName.isValid(""))
    }

    @Test func aModelWithAQuoteInANameIsRefusedNamingIt() throws {
        let title = AttributeDescription("title", .string)
        func refusal(_ entity: EntityDescription) -> ModelError? {
            do {
                _ = try ManagedObjectModel(entities: [entity, EntityDescription("Shelf")])
                return nil
            } catch {
                return error
            }
        }
        #expect(refusal(EntityDescription("Bo\"ok", attributes: [title])) == .invalidName("Bo\"ok", entity: "Bo\"ok", kind: "entity"))
        #expect(refusal(EntityDescription("Book", attributes: [AttributeDescription("it's", .string)])) == .invalidName("it's", entity: "Book", kind: "attribute"))
        var indexed = EntityDescription("Book", attributes: [title])
        indexed.fetchIndexes = [FetchIndex("by \"title\"", ["title"])]
        #expect(refusal(indexed) == .invalidName("by \"title\"", entity: "Book", kind: "fetch index"))
        #expect(refusal(indexed)?.description == #"entity Book: fetch index by "title" is not a usable name: names are letters, digits and _, not starting with a digit, as Xcode requires"#)
        let shelf = EntityDescription("Shelf", relationships: [RelationshipDescription("b\"ooks", to: "Shelf", toMany: true)])
        #expect(throws: ModelError.invalidName("b\"ooks", entity: "Shelf", kind: "relationship")) { try ManagedObjectModel(entities: [shelf]) }
    }

    /// The same model read from an Xcode file fails to load, and no store is created.
    @Test func anXcodeModelWithAQuotedEntityNameDoesNotLoad() throws {
        let path = try XcodeModelFixtures.writeModel(#"<entity name="Bo&quot;ok"><attribute name="title" attributeType="String"/></entity>"#)
        #expect { try ModelFile(path: path) } throws: { error in
            guard let error = error as? ModelFileError, case .invalidModel(_, .invalidName("Bo\"ok", entity: "Bo\"ok", kind: "entity")) = error else { return false }
            return true
        }
    }
}
