import Foundation
import Testing
import TestScratch
@testable import GraphStore

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

    @Test(.timeLimit(.minutes(1))) func aCycleWithoutAModelFileNamesItsEntities() throws {
        let (path, error) = try opening("UPDATE Z_PRIMARYKEY SET Z_SUPER = 2 WHERE Z_NAME = 'Book'; UPDATE Z_PRIMARYKEY SET Z_SUPER = 1 WHERE Z_NAME = 'BookCategory'")
        #expect(error == .inheritanceCycle(path: path, entities: ["Book", "BookCategory", "Book"]))
        #expect(error?.description.hasSuffix("in a cycle: Book → BookCategory → Book") == true)
    }

    @Test(.timeLimit(.minutes(1))) func aCycleIsFoundWhereverItStartsAndWithAModelToo() throws {
        // Book → BookCategory → Page → BookCategory: the cycle leaves Book out.
        let sql = "UPDATE Z_PRIMARYKEY SET Z_SUPER = 2 WHERE Z_NAME = 'Book'; UPDATE Z_PRIMARYKEY SET Z_SUPER = 3 WHERE Z_NAME = 'BookCategory'; UPDATE Z_PRIMARYKEY SET Z_SUPER = 2 WHERE Z_NAME = 'Page'"
        let (path, error) = try opening(sql)
        #expect(error == .inheritanceCycle(path: path, entities: ["BookCategory", "Page", "BookCategory"]))
        let (other, withModel) = try opening(sql, model: Fixtures.bookStoreModel())
        #expect(withModel == .inheritanceCycle(path: other, entities: ["BookCategory", "Page", "BookCategory"]))
    }

    @Test(.timeLimit(.minutes(1))) func anEntityThatIsItsOwnParentIsACycle() throws {
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

    @Test func aModelFiveThousandEntitiesDeepIsBuilt() throws {
        let depth = 5_000
        let entities = (1...depth).map { EntityDescription("E\($0)", parent: $0 > 1 ? "E\($0 - 1)" : nil) }
        let model = try ManagedObjectModel(entities: entities)
        #expect(model.ancestry(of: "E\(depth)").count == depth)
        #expect(model.selfAndDescendants(of: "E1").map(\.name) == entities.map(\.name))
        #expect(model.entitiesInNumberingOrder.count == depth)
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
