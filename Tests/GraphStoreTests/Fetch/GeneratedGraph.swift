import Foundation

@testable import GraphStore

/// Random people (and employees) with addresses, children, toys, pets, items and labels,
/// values drawn from small pools so that predicates hit often; nil everywhere it can be.
enum GeneratedGraph {
    static let names = [
        "Alice", "alice", "ALICE", "Bob", "bob", "Éloïse", "eloise", "Zoë", "zoe", "Ångström", "straße", "STRASSE", "", "a",
        "ab", "abc", "x z", "xz", "O'Brien", "naïve", "Citroën C4", "Ab*", "a?c", "İstanbul", "😀 smile", "Carol", "carolyn",
    ]
    static let cities = ["Paris", "paris", "Berlin", "Görlitz", "GORLITZ", "Zürich", "", "Ab"]
    static let tags = ["red", "Red", "green", "blue", "ÉTÉ"]

    static func pick<T>(_ pool: [T], _ rng: inout SeededGenerator, nilChance: Double = 0.15) -> T? {
        Double.random(in: 0..<1, using: &rng) < nilChance ? nil : pool.randomElement(using: &rng)
    }

    /// Fills a people store and saves it.
    static func populate(_ context: ManagedObjectContext, people: Int, seed: UInt64) throws {
        var rng = SeededGenerator(state: seed)
        let labels = try tags.map { title -> ManagedObject in
            let tag = try context.insert("Tag")
            try tag.setValue(.string(title), forKey: "title")
            return tag
        }
        for _ in 0..<people {
            let person = try context.insert(Bool.random(using: &rng) && Bool.random(using: &rng) ? "Employee" : "Person")
            try person.setValue(pick(names, &rng).map(AttributeValue.string), forKey: "name")
            try person.setValue(pick(names, &rng).map(AttributeValue.string), forKey: "firstName")
            try person.setValue(pick(Array(0...60), &rng).map { .integer(Int64($0)) }, forKey: "age")
            try person.setValue(pick([0.0, 1.5, 7.5, -2.25, 40.5, 1e10], &rng).map(AttributeValue.double), forKey: "score")
            try person.setValue(pick([true, false], &rng).map(AttributeValue.bool), forKey: "active")
            try person.setValue(
                pick([0, 86400, 1e9, -1e8, 7e8], &rng).map { .date(Date(timeIntervalSinceReferenceDate: $0)) }, forKey: "born")
            if person.entity.name == "Employee" {
                try person.setValue(pick([1000, 2000, 3000], &rng).map { .integer(Int64($0)) }, forKey: "salary")
            }
            if Double.random(in: 0..<1, using: &rng) < 0.7 { try addAddress(to: person, context, &rng) }
            for _ in 0..<Int.random(in: 0...3, using: &rng) { try addChild(to: person, context, &rng) }
            for _ in 0..<Int.random(in: 0...2, using: &rng) {
                let pet = try context.insert("Pet")
                try pet.setValue(pick(Array(0...15), &rng).map { .integer(Int64($0)) }, forKey: "age")
                try person.add(pet, toKey: "pets")
            }
            for label in labels where Double.random(in: 0..<1, using: &rng) < 0.3 { try person.add(label, toKey: "labels") }
        }
        try context.save()
    }

    private static func addAddress(to person: ManagedObject, _ context: ManagedObjectContext, _ rng: inout SeededGenerator) throws {
        let address = try context.insert("Address")
        try address.setValue(pick(cities, &rng).map(AttributeValue.string), forKey: "city")
        if Bool.random(using: &rng) {
            let geo = try context.insert("Geo")
            try geo.setValue(pick([48.85, 52.5, -33.9, 0], &rng).map(AttributeValue.double), forKey: "lat")
            try address.setObject(geo, forKey: "geo")
        }
        try person.setObject(address, forKey: "address")
    }

    private static func addChild(to person: ManagedObject, _ context: ManagedObjectContext, _ rng: inout SeededGenerator) throws {
        let child = try context.insert("Child")
        try child.setValue(pick(names, &rng).map(AttributeValue.string), forKey: "name")
        try child.setValue(pick(Array(0...18), &rng).map { .integer(Int64($0)) }, forKey: "age")
        for _ in 0..<Int.random(in: 0...2, using: &rng) {
            let toy = try context.insert("Toy")
            try toy.setValue(pick(["ball", "Ball", "doll", "kite"], &rng).map(AttributeValue.string), forKey: "name")
            try child.add(toy, toKey: "toys")
        }
        try person.add(child, toKey: "children")
    }
}
