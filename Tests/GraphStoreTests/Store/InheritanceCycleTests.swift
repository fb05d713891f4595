import Foundation
import Testing
import TestScratch
@testable import GraphStore
@testable import GraphStoreModel

/// `Z_SUPER` read from a store: a cycle is an error naming the entities in it (it used to
/// hang inference), and a deep hierarchy is checked in one linear walk (a 1,000-deep chain
/// used to take half a minute).
@Suite struct InheritanceCycleTests {
    private func opening(_ sql: String, model: ManagedObjectModel? = nil) throws -> (path: String, error: StoreError?) {
        let path = try BrokenStores.changed(Fixtures.exampleStore, sql: sql)
        do {
            _ = try PersistentStore(path: path, model: model)
            return (path, nil)
        } catch {
            return (path, error)
        }
    }

    @Test(.timeLimit(.minutes(10))) func aCycleWithoutAModelFileNamesItsEntities() throws {
        let (path, error) = try opening("UPDATE Z_PRIMARYKEY SET Z_SUPER = 2 WHERE Z_NAME = 'Book'; UPDATE Z_PRIMARYKEY SET Z_SUPER = 1 WHERE Z_NAME = 'BookCategory'")
        #expect(error == .inheritanceCycle(path: path, entities: ["Book", "BookCategory", "Book"]))
        #expect(error?.description.hasSuffix("in a cycle: Book → BookCategory → Book") == true)
    }

    @Test(.timeLimit(.minutes(10))) func aCycleIsFoundWhereverItStartsAndWithAModelToo() throws {
        // Book → BookCategory → Page → BookCategory: the cycle leaves Book out.
        let sql = "UPDATE Z_PRIMARYKEY SET Z_SUPER = 2 WHERE Z_NAME = 'Book'; UPDATE Z_PRIMARYKEY SET Z_SUPER = 3 WHERE Z_NAME = 'BookCategory'; UPDATE Z_PRIMARYKEY SET Z_SUPER = 2 WHERE Z_NAME = 'Page'"
        let (path, error) = try opening(sql)
        #expect(error == .inheritanceCycle(path: path, entities: ["BookCategory", "Page", "BookCategory"]))
        let (other, withModel) = try opening(sql, model: Fixtures.bookStoreModel())
        #expect(withModel == .inheritanceCycle(path: other, entities: ["BookCategory", "Page", "BookCategory"]))
    }

    @Test(.timeLimit(.minutes(10))) func anEntityThatIsItsOwnParentIsACycle() throws {
        let (path, error) = try opening("UPDATE Z_PRIMARYKEY SET Z_SUPER = 3 WHERE Z_NAME = 'Page'")
        #expect(error == .inheritanceCycle(path: path, entities: ["Page", "Page"]))
    }

    @Test func aModelBuiltWithACycleNamesItsEntities() throws {
        #expect(throws: ModelError.inheritanceCycle(["A", "B", "A"])) {
            _ = try ManagedObjectModel(entities: [EntityDescription("A", parent: "B"), EntityDescription("B", parent: "A"), EntityDescription("C", parent: "A")])
        }
    }

    /// The walk steps once per entity, however deep the chain (it used to step depth
    /// times for each entity, and search its path at each step).
    @Test func theCycleCheckStepsOncePerEntity() {
        let depth = 5_000
        let chain = InheritanceCycles(nodes: Array(1...depth)) { $0 > 1 ? $0 - 1 : nil }
        #expect(chain.first == nil)
        #expect(chain.steps == depth)
        let reversed = InheritanceCycles(nodes: Array((1...depth).reversed())) { $0 > 1 ? $0 - 1 : nil }
        #expect(reversed.steps == depth)
        let ring = InheritanceCycles(nodes: Array(1...depth)) { $0 > 1 ? $0 - 1 : depth }
        #expect(ring.first?.count == depth + 1)
        #expect(ring.steps == depth)
    }

    /// Each node's depth comes out of the same walk: the deepest node and its depth, for a
    /// chain listed in either order and for a tree with several branches.
    @Test func theWalkFindsTheDeepestNode() {
        let chain = InheritanceCycles(nodes: Array(1...300)) { $0 > 1 ? $0 - 1 : nil }
        #expect(chain.deepest?.node == 300)
        #expect(chain.deepest?.depth == 300)
        let reversed = InheritanceCycles(nodes: Array((1...300).reversed())) { $0 > 1 ? $0 - 1 : nil }
        #expect(reversed.deepest?.depth == 300)
        // 1 ← 2 ← 3, 1 ← 4 ← 5 ← 6, 7 alone.
        let parents = [2: 1, 3: 2, 4: 1, 5: 4, 6: 5]
        let tree = InheritanceCycles(nodes: [3, 7, 6, 1, 2, 4, 5]) { parents[$0] }
        #expect(tree.deepest?.node == 6)
        #expect(tree.deepest?.depth == 4)
        #expect(tree.steps == 7)
    }

    @Test func aModelAsDeepAsAllowedIsBuiltAndOneLevelDeeperIsRefused() throws {
        let depth = InheritanceCycles<String>.maximumDepth
        let entities = (1...depth).map { EntityDescription("E\($0)", parent: $0 > 1 ? "E\($0 - 1)" : nil) }
        let model = try ManagedObjectModel(entities: entities)
        #expect(model.ancestry(of: "E\(depth)").count == depth)
        #expect(model.selfAndDescendants(of: "E1").map(\.name) == entities.map(\.name))
        #expect(model.entitiesInNumberingOrder.count == depth)
        let deeper = entities + [EntityDescription("E\(depth + 1)", parent: "E\(depth)")]
        #expect(throws: ModelError.inheritanceTooDeep(entity: "E\(depth + 1)", depth: depth + 1, maximum: depth)) {
            _ = try ManagedObjectModel(entities: deeper)
        }
    }

    /// A `Z_SUPER` chain deeper than GraphStore reads is refused at once, naming the
    /// deepest entity (a 20,000-deep chain used to keep opening busy for minutes).
    @Test(.timeLimit(.minutes(10))) func aStoreWhoseEntitiesAreTooDeepIsRefused() throws {
        let depth = 5_000
        var sql = "DELETE FROM Z_PRIMARYKEY; INSERT INTO Z_PRIMARYKEY VALUES (1, 'E1', 0, 0);"
        for number in 2...depth { sql += "INSERT INTO Z_PRIMARYKEY VALUES (\(number), 'E\(number)', \(number - 1), 0);" }
        let (path, error) = try opening(sql)
        #expect(error == .malformedStore(
            path: path, reason: "Z_PRIMARYKEY's Z_SUPER makes entity E5000 inherit through 5000 levels; GraphStore reads at most 1024"))
    }

    @Test func aStoreWhoseEntitiesAreAThousandDeepOpens() throws {
        let depth = 1_000
        var sql = "DELETE FROM Z_PRIMARYKEY; INSERT INTO Z_PRIMARYKEY VALUES (1, 'E1', 0, 0);"
        for number in 2...depth { sql += "INSERT INTO Z_PRIMARYKEY VALUES (\(number), 'E\(number)', \(number - 1), 0);" }
        sql += "CREATE TABLE ZE1 (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);"
        sql += "INSERT INTO ZE1 VALUES (1, \(depth), 1, 'deepest')"
        let path = try BrokenStores.changed(Fixtures.exampleStore, sql: sql)
        let store = try PersistentStore(path: path)
        #expect(store.model.entities.count == depth)
        #expect(store.model.ancestry(of: "E\(depth)").map(\.name) == (1...depth).map { "E\($0)" })
        let deepest = try store.mapping(for: "E\(depth)")
        #expect(deepest.table == "ZE1")
        #expect(try store.count(of: deepest) == 1)
        #expect(try store.count(of: store.mapping(for: "E1"), includingSubentities: true) == 1)
    }
}
