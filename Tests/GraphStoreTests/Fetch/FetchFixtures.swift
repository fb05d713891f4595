import Foundation
import GraphStore

/// A model whose Person mirrors the objects of the shared predicate vectors: scalar
/// attributes, a to-one address (with a to-one geo), ordered children with toys, pets,
/// items, an info object; plus a many-to-many (labels/Tag) and a sub-entity (Employee)
/// for the generated tests.
enum FetchFixtures {
    static func peopleModel() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Person") {
                AttributeDescription("name", .string)
                AttributeDescription("age", .integer64)
                AttributeDescription("score", .double)
                AttributeDescription("active", .boolean)
                AttributeDescription("born", .date)
                AttributeDescription("firstName", .string)
                AttributeDescription("lastName", .string)
                AttributeDescription("w", .string)
                AttributeDescription("seq", .string)
                AttributeDescription("like", .string)
                AttributeDescription("val", .string)
                AttributeDescription("a", .integer64)
                RelationshipDescription("address", to: "Address", inverse: "person")
                RelationshipDescription("info", to: "Info", inverse: "person")
                RelationshipDescription("children", to: "Child", inverse: "parent", toMany: true, ordered: true)
                RelationshipDescription("pets", to: "Pet", inverse: "owner", toMany: true)
                RelationshipDescription("items", to: "Item", inverse: "owner", toMany: true)
                RelationshipDescription("labels", to: "Tag", inverse: "people", toMany: true)
                FetchIndex("byName", ["name"])
            }
            EntityDescription("Employee", parent: "Person") {
                AttributeDescription("salary", .integer32)
            }
            EntityDescription("Address") {
                AttributeDescription("city", .string)
                AttributeDescription("zip", .string)
                RelationshipDescription("geo", to: "Geo", inverse: "address")
                RelationshipDescription("person", to: "Person", inverse: "address")
            }
            EntityDescription("Geo") {
                AttributeDescription("lat", .double)
                AttributeDescription("lng", .double)
                RelationshipDescription("address", to: "Address", inverse: "geo")
            }
            EntityDescription("Child") {
                AttributeDescription("name", .string)
                AttributeDescription("age", .integer64)
                RelationshipDescription("parent", to: "Person", inverse: "children")
                RelationshipDescription("toys", to: "Toy", inverse: "child", toMany: true)
            }
            EntityDescription("Toy") {
                AttributeDescription("name", .string)
                RelationshipDescription("child", to: "Child", inverse: "toys")
            }
            EntityDescription("Pet") {
                AttributeDescription("name", .string)
                AttributeDescription("age", .integer64)
                RelationshipDescription("owner", to: "Person", inverse: "pets")
            }
            EntityDescription("Item") {
                AttributeDescription("price", .integer64)
                RelationshipDescription("owner", to: "Person", inverse: "items")
            }
            EntityDescription("Info") {
                AttributeDescription("color", .string)
                RelationshipDescription("person", to: "Person", inverse: "info")
            }
            EntityDescription("Tag") {
                AttributeDescription("title", .string)
                RelationshipDescription("people", to: "Person", inverse: "labels", toMany: true)
            }
        }
    }

    /// A new, empty people store and a context on it.
    static func peopleStore() throws -> (PersistentStore, ManagedObjectContext) {
        let store = try PersistentStore.create(at: try Fixtures.newStorePath(), model: try peopleModel())
        return (store, ManagedObjectContext(store: store))
    }
}
