// Grocery Dude ("Learning Core Data for iOS", chapter 4): items measured in units, and
// where they are kept at home and found in the shop. The exercise changes the delete rule
// of Unit.items — Deny, then Cascade, then Nullify — and deletes a unit that items use.
//
//     swift run groceries-example /tmp/groceries.sqlite Deny
//     graphstore --write --model examples/GroceryDude/GroceryDude.xcdatamodeld/Deny.xcdatamodel \
//         /tmp/groceries.sqlite < examples/GroceryDude/deny.graphstore
//
// The program creates and seeds the store with the chosen version of the model, then runs
// the exercise in memory (delete the unit "g", try to save, show the outcome) and rolls it
// back, so the store stays seeded for the REPL scripts.
import Foundation
import GraphStore

let arguments = Array(CommandLine.arguments.dropFirst())
let path = arguments.first ?? "groceries.sqlite"
let rule = arguments.count > 1 ? arguments[1] : "Nullify"
let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let modelPath = folder.appendingPathComponent("GroceryDude.xcdatamodeld/\(rule).xcdatamodel").path

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("groceries-example: \(message)\n".utf8))
    exit(1)
}

/// Inserts an object with string values.
func insert(_ context: ManagedObjectContext, _ entity: String, _ values: [String: String]) throws -> ManagedObject {
    let object = try context.insert(entity)
    for (key, value) in values.sorted(by: { $0.key < $1.key }) { try object.set(key, value) }
    return object
}

do {
    guard ["Deny", "Cascade", "Nullify"].contains(rule) else { fail("the rule is Deny, Cascade or Nullify, not \(rule)") }
    let model = try ModelFile.load(path: modelPath)
    let store = try PersistentStore.create(at: path, model: model)
    let context = ManagedObjectContext(store: store)

    let grams = try insert(context, "Unit", ["name": "g"])
    let kilos = try insert(context, "Unit", ["name": "Kg"])
    let fridge = try insert(context, "LocationAtHome", ["summary": "Fridge", "storedIn": "Fridge"])
    let pantry = try insert(context, "LocationAtHome", ["summary": "Pantry", "storedIn": "Pantry"])
    let dairy = try insert(context, "LocationAtShop", ["summary": "Dairy", "aisle": "Aisle 1"])
    let produce = try insert(context, "LocationAtShop", ["summary": "Produce", "aisle": "Aisle 2"])
    for (name, quantity, unit, home, shop) in [
        ("Chocolate", 250.0, grams, pantry, dairy), ("Butter", 125.0, grams, fridge, dairy),
        ("Potatoes", 4.0, kilos, pantry, produce),
    ] {
        let item = try insert(context, "Item", ["name": name])
        try item.set("quantity", quantity)
        try item.setObject(unit, forKey: "unit")
        try item.setObject(home, forKey: "locationAtHome")
        try item.setObject(shop, forKey: "locationAtShop")
    }
    try context.save()
    try store.checkpoint()
    print("created \(path) with Unit.items delete rule \(rule): 2 units, 3 items, 4 locations in one table (\(try store.mapping(for: "Location").table))")

    // The exercise: delete the unit "g", which Chocolate and Butter use.
    do {
        try grams.validateForDelete()
        print("validateForDelete: Unit g may be deleted")
    } catch {
        print("validateForDelete: \(error)")
    }
    try context.delete(grams)
    print("  deleted: \(context.deletedObjects.map(\.objectID.description).joined(separator: ", "))")
    for item in try context.fetch("Item") {
        let state = item.isDeleted ? "deleted" : "unit \(try item.object(forKey: "unit").map { try $0.get("name", as: String.self) ?? "?" } ?? "nil")"
        print("  after delete: \(try item.get("name", as: String.self) ?? "?"): \(state)")
    }
    do {
        try context.validateChanges()
        print("the save would succeed: \(context.deletedObjects.count) object(s) deleted, \(context.updatedObjects.count) updated")
    } catch {
        print("the save would fail: \(error)")
    }
    context.rollback()
} catch {
    fail("\(error)")
}
