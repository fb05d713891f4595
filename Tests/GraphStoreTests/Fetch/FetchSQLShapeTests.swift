import Foundation
import Testing

@testable import GraphStore

@Suite("Fetch SQL shapes")
struct FetchSQLShapeTests {
    let store: PersistentStore

    init() throws {
        (store, _) = try FetchFixtures.peopleStore()
    }

    func sql(_ format: String, _ arguments: any PredicateArgument..., entity: String = "Person") throws -> GeneratedSQL {
        let request = FetchRequest(entityName: entity, predicate: try ObjectPredicate(format: format, argumentArray: arguments))
        return try store.sql(for: request, resultType: .objectIDs)
    }

    @Test("print shapes") func printShapes() throws {
        for format in [
            "name == 'Alice'", "age > 3 AND name != nil", "address.city == 'Paris'", "address.geo.lat > 48",
            "ANY children.age > 10", "ALL children.age > 1", "children.@count == 2", "NOT name == 'Bob'",
            "name BEGINSWITH 'Al'", "name BEGINSWITH[c] 'al'", "name IN {'a', 'b'}", "age BETWEEN {1, 5}",
            "SUBQUERY(children, $c, $c.age > 10 AND SUBQUERY($c.toys, $t, $t.name == 'ball').@count > 0).@count == 1",
            "ANY labels.title == 'x'", "children.@max.age == 12", "name.length > 3 AND age > 2", "age == '30'",
            "address.person.children.@count > 1", "name LIKE 'Al*e'", "children.name CONTAINS 'Bob'",
        ] {
            print(format, "→", try sql(format))
        }
    }
}
