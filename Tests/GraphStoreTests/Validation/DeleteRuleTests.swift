import Foundation
import Testing
@testable import GraphStore

/// Delete rules, applied when the delete is processed: nullify, cascade, deny, no action.
@Suite struct DeleteRuleTests {
    typealias F = ValidationFixtures

    /// Item *—1 Unit, with `rule` on Unit.items (the "Grocery Dude" exercise).
    private func groceryModel(_ rule: DeleteRule) throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Unit") {
                AttributeDescription("name", .string)
                RelationshipDescription("items", to: "Item", inverse: "unit", toMany: true).deleteRule(rule)
            }
            EntityDescription("Item") {
                AttributeDescription("name", .string)
                RelationshipDescription("unit", to: "Unit", inverse: "items")
            }
        }
    }

    /// A saved unit with two items.
    private func savedUnit(_ rule: DeleteRule) throws -> (ManagedObjectContext, String, ManagedObject, [ManagedObject]) {
        let (context, path) = try F.newContext(try groceryModel(rule))
        let unit = try context.insert("Unit")
        try unit.set("name", "g")
        let items = try (0..<2).map { i -> ManagedObject in
            let item = try context.insert("Item")
            try item.set("name", "item \(i)")
            try item.setObject(unit, forKey: "unit")
            return item
        }
        try context.save()
        return (context, path, unit, items)
    }

    @Test func nullifyClearsTheInverse() throws {
        let (context, path, unit, items) = try savedUnit(.nullify)
        try context.delete(unit)
        let units = try items.map { try $0.object(forKey: "unit") }
        #expect(units.count == 2 && units.allSatisfy { $0 == nil })
        #expect(Set(context.updatedObjects.map(\.objectID)) == Set(items.map(\.objectID)))
        try context.save()
        #expect(try F.rows(path, "SELECT Z_PK, ZUNIT FROM ZITEM ORDER BY Z_PK") == [["1", "NULL"], ["2", "NULL"]])
        #expect(try F.rows(path, "SELECT COUNT(*) FROM ZUNIT") == [["0"]])
    }

    @Test func cascadeDeletesTheDestinations() throws {
        let (context, path, unit, items) = try savedUnit(.cascade)
        try context.delete(unit)
        #expect(items.allSatisfy { $0.isDeleted })
        #expect(context.deletedObjects.count == 3)
        try context.save()
        #expect(try F.rows(path, "SELECT COUNT(*) FROM ZITEM") == [["0"]])
        #expect(try F.rows(path, "SELECT COUNT(*) FROM ZUNIT") == [["0"]])
    }

    @Test func cascadeFollowsChainsAndCyclesDeletingEachObjectOnce() throws {
        // A ring of nodes whose next/previous both cascade, and a branch hanging off one.
        let model = try ManagedObjectModel {
            EntityDescription("Node") {
                AttributeDescription("name", .string)
                RelationshipDescription("next", to: "Node", inverse: "previous").deleteRule(.cascade)
                RelationshipDescription("previous", to: "Node", inverse: "next").deleteRule(.cascade)
                RelationshipDescription("leaves", to: "Leaf", inverse: "node", toMany: true).deleteRule(.cascade)
            }
            EntityDescription("Leaf") {
                RelationshipDescription("node", to: "Node", inverse: "leaves").deleteRule(.cascade)
            }
        }
        let (context, path) = try F.newContext(model)
        let nodes = try (0..<4).map { _ in try context.insert("Node") }
        for i in nodes.indices { try nodes[i].setObject(nodes[(i + 1) % nodes.count], forKey: "next") }
        #expect(try nodes[0].object(forKey: "previous") === nodes[3])
        for _ in 0..<3 { try nodes[2].add(try context.insert("Leaf"), toKey: "leaves") }
        try context.save()
        let unrelated = try context.insert("Node")
        try context.save()
        try context.delete(nodes[0])
        #expect(context.deletedObjects.count == 7)
        #expect(Set(context.deletedObjects.map(ObjectIdentifier.init)).count == 7)
        #expect(!unrelated.isDeleted)
        try context.save()
        #expect(try F.rows(path, "SELECT Z_PK FROM ZNODE") == [["5"]])
        #expect(try F.rows(path, "SELECT COUNT(*) FROM ZLEAF") == [["0"]])
    }

    @Test func denyFailsTheSaveWhileTheRelationshipHoldsObjects() throws {
        let (context, path, unit, items) = try savedUnit(.deny)
        // validateForDelete answers before anything is deleted.
        let before = try F.failures { try unit.validateForDelete() }
        #expect(before.map(\.code.rawValue) == [1600])
        #expect(before.first?.description == "Unit/p1: cannot be deleted while items still holds Item/p1, Item/p2 (delete rule Deny)")
        try context.delete(unit)
        // Deny changes nothing at delete time: the items still point at the unit.
        #expect(try items[0].object(forKey: "unit") === unit)
        let failures = try F.failures { try context.save() }
        #expect(failures.map(\.code) == [.deleteDenied])
        #expect(failures.first?.relatedObjects == items.map(\.objectID))
        #expect(context.deletedObjects.map(\.objectID) == [unit.objectID])
        #expect(try F.rows(path, "SELECT COUNT(*) FROM ZUNIT") == [["1"]])
        // Emptying the relationship (the items' own rule, nullify, takes them out) fixes it.
        for item in items { try context.delete(item) }
        try unit.validateForDelete()
        try context.save()
        #expect(try F.rows(path, "SELECT COUNT(*) FROM ZUNIT") == [["0"]])
        #expect(try F.rows(path, "SELECT COUNT(*) FROM ZITEM") == [["0"]])
    }

    @Test func denyAllowsDeletingAnEmptyRelationshipsOwner() throws {
        let (context, _, unit, items) = try savedUnit(.deny)
        for item in items { try item.setObject(nil, forKey: "unit") }
        try context.delete(unit)
        try context.save()
        #expect(try context.fetch("Unit").isEmpty)
    }

    @Test func noActionLeavesTheInverseDangling() throws {
        let (context, path, unit, items) = try savedUnit(.noAction)
        try context.delete(unit)
        // As documented: the items are not touched, and still name the deleted unit.
        #expect(context.updatedObjects.isEmpty)
        #expect(try items[0].object(forKey: "unit") === unit)
        try context.save()
        #expect(try F.rows(path, "SELECT Z_PK, ZUNIT FROM ZITEM ORDER BY Z_PK") == [["1", "1"], ["2", "1"]])
        #expect(try F.rows(path, "SELECT COUNT(*) FROM ZUNIT") == [["0"]])
        // The store validator reports what was left behind.
        let store = try PersistentStore(path: path, model: try groceryModel(.noAction))
        var found: [String] = []
        try StoreValidator(store: store).validate { found.append("\($0.code.rawValue) \($0)") }
        #expect(found == [
            "133000 Item/p1: unit points at Unit/p1, which does not exist",
            "133000 Item/p2: unit points at Unit/p1, which does not exist",
        ])
    }

    @Test func deletingAnInsertedObjectAppliesItsRulesAndLeavesNoRow() throws {
        let (context, path) = try F.newContext(try groceryModel(.cascade))
        let unit = try context.insert("Unit")
        let item = try context.insert("Item")
        try item.setObject(unit, forKey: "unit")
        try context.delete(unit)
        #expect(item.isDeleted)
        #expect(!context.hasChanges)
        try context.save()
        #expect(try F.rows(path, "SELECT COUNT(*) FROM ZITEM") == [["0"]])
    }
}
