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

extension FetchFixtures {
    /// Six people (one an Employee) with names, ages, cities and children, saved:
    ///
    ///     name     age  city    children
    ///     Alice    30   Paris   Bob(5), Carol(12)
    ///     bob      25   berlin  -
    ///     Carol    41   Paris   Dan(3)
    ///     dave     nil  nil     -
    ///     Éve      25   Zürich  -
    ///     nil      19   Paris   Eve(1)       (Employee, salary 1200)
    static func sampleStore() throws -> (PersistentStore, ManagedObjectContext) {
        let (store, context) = try peopleStore()
        let rows: [(String?, Int64?, String?, [(String, Int64)], Bool)] = [
            ("Alice", 30, "Paris", [("Bob", 5), ("Carol", 12)], false), ("bob", 25, "berlin", [], false),
            ("Carol", 41, "Paris", [("Dan", 3)], false), ("dave", nil, nil, [], false), ("Éve", 25, "Zürich", [], false),
            (nil, 19, "Paris", [("Eve", 1)], true),
        ]
        for (name, age, city, children, employee) in rows {
            let person = try context.insert(employee ? "Employee" : "Person")
            try person.set("name", name)
            try person.set("age", age)
            if employee { try person.set("salary", Int64(1200)) }
            if let city {
                let address = try context.insert("Address")
                try address.set("city", city)
                try person.setObject(address, forKey: "address")
            }
            for (childName, childAge) in children {
                let child = try context.insert("Child")
                try child.set("name", childName)
                try child.set("age", childAge)
                try person.add(child, toKey: "children")
            }
        }
        try context.save()
        return (store, ManagedObjectContext(store: store))
    }

    /// The names of objects, nil as "nil".
    static func names(_ objects: some Sequence<ManagedObject>) throws -> [String] {
        try objects.map { try $0.get("name", as: String.self) ?? "nil" }
    }
}
