import Foundation
import Testing
@testable import GraphStore

/// A variable as the first component of a key path (`$x.price`, `$FETCH_SOURCE.category.name`,
/// `ANY $list.name`, key paths after a SUBQUERY's variable): parsed and printed as
/// `NSPredicate(format:)` does, evaluated in memory, and, once the variable is bound to a
/// managed object, read in the fetching context and bound in SQL, with the answer the
/// in-memory evaluator gives.
@Suite struct VariableKeyPathTests {
    let context: ManagedObjectContext
    let fiction: ManagedObject

    /// Fiction: The first book (10), The second book (15); Biography: The third book (10),
    /// The fourth book (12); no category: The fifth book (8). Saved.
    init() throws {
        context = ManagedObjectContext(store: try PersistentStore.create(at: try Fixtures.newStorePath(), model: try Fixtures.bookStoreModel()))
        fiction = try context.insert("BookCategory")
        try fiction.set("name", "Fiction")
        let biography = try context.insert("BookCategory")
        try biography.set("name", "Biography")
        for (title, price, category) in [
            ("The first book", 10.0, fiction), ("The second book", 15, fiction), ("The third book", 10, biography),
            ("The fourth book", 12, biography), ("The fifth book", 8, nil),
        ] {
            let book = try context.insert("Book")
            try book.set("title", title)
            try book.set("price", price)
            try book.setObject(category, forKey: "category")
        }
        try context.save()
    }

    private func book(_ title: String) throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest(entityName: "Book", format: "title == %@", title)).first)
    }

    /// What a fetch of `entity` with `format` (its variables bound) returns, checked against
    /// evaluating the predicate on every object in memory, and its SQL.
    private func fetch(_ entity: String, _ format: String, _ variables: [String: PredicateValue]) throws -> (titles: [String], sql: GeneratedSQL) {
        let predicate = try ObjectPredicate(format: format)
        var request = FetchRequest(entityName: entity, predicate: predicate.withSubstitutionVariables(variables))
        request.sortKeys = [SortKey(entity == "Book" ? "title" : "name")]
        let fetched = try context.fetch(request).map(\.objectID)
        var all = FetchRequest(entityName: entity)
        all.sortKeys = request.sortKeys
        let expected = try context.fetch(all).filter { try predicate.evaluate(with: $0, substitutionVariables: variables) }.map(\.objectID)
        #expect(fetched == expected, "\(format)")
        let titles = try fetched.map { try context.object(for: $0).get(entity == "Book" ? "title" : "name", as: String.self) ?? "" }
        return (titles, try context.store.sql(for: try context.resolvingObjectConstants(request)))
    }

    @Test(arguments: [
        "$FETCH_SOURCE.category.name == category.name", "$x.price > 10", "ANY $list.name == \"x\"",
        "SUBQUERY(books, $b, $b.category.name == $FETCH_SOURCE.name).@count > 0", "$x[\"price\"] > 10",
        "SUBQUERY($x.books, $b, $b.price > $y.price).@count == 1",
    ])
    func parsesAndPrintsAsItWasWritten(_ format: String) throws {
        let predicate = try ObjectPredicate(format: format)
        #expect(predicate.predicateFormat == format)
        #expect(try ObjectPredicate(format: predicate.predicateFormat).predicateFormat == format)
    }

    @Test func evaluatesInMemoryWithBoundValues() throws {
        let x: PredicateValue = ["price": 20, "books": [["price": 5], ["price": 30]]]
        #expect(try ObjectPredicate(format: "$x.price > 10").evaluate(with: [:], substitutionVariables: ["x": x]))
        let both: PredicateValue = [["name": "y"], ["name": "x"]]
        let one: PredicateValue = [["name": "y"]]
        #expect(try ObjectPredicate(format: "ANY $list.name == 'x'").evaluate(with: [:], substitutionVariables: ["list": both]))
        #expect(try !ObjectPredicate(format: "ANY $list.name == 'x'").evaluate(with: [:], substitutionVariables: ["list": one]))
        #expect(try ObjectPredicate(format: "SUBQUERY($x.books, $b, $b.price > $x.price).@count == 1").evaluate(with: [:], substitutionVariables: ["x": x]))
        let ten: PredicateValue = ["price": 10]
        #expect(try ObjectPredicate(format: "SUBQUERY(books, $b, $b.price > $x.price).@count == 1").evaluate(withValue: x, substitutionVariables: ["x": ten]))
    }

    /// `$x.price` with a book: the book's price, bound; a changed, unsaved price counts.
    @Test func aKeyPathOfABoundObjectIsReadInTheContext() throws {
        let third = try book("The third book")
        var result = try fetch("Book", "price > $x.price", ["x": third.predicateValue])
        #expect(result.titles == ["The fourth book", "The second book"])
        #expect(result.sql.inMemoryPredicate == nil)
        #expect(result.sql.bindings.contains(.real(10)))
        try third.set("price", 14.0)
        result = try fetch("Book", "price > $x.price", ["x": third.predicateValue])
        #expect(result.titles == ["The second book"])
        #expect(try context.count(for: FetchRequest(entityName: "Book", predicate: try ObjectPredicate(format: "price > $x.price").withSubstitutionVariables(["x": third.predicateValue]))) == 1)
        // The store on its own reads what is stored.
        let stored = try context.store.sql(for: FetchRequest(entityName: "Book", predicate: try ObjectPredicate(format: "price > $x.price").withSubstitutionVariables(["x": third.predicateValue])))
        #expect(stored.bindings.contains(.real(10)) && stored.inMemoryPredicate == nil)
    }

    /// Core Data's fetched-property form, `$FETCH_SOURCE.category.name == category.name`: a
    /// book with no category reads nil, as the evaluator does.
    @Test func aPathThroughToOnesOfTheSourceIsOneBoundValue() throws {
        var result = try fetch("Book", "$FETCH_SOURCE.category.name == category.name", ["FETCH_SOURCE": try book("The first book").predicateValue])
        #expect(result.titles == ["The first book", "The second book"])
        #expect(result.sql.inMemoryPredicate == nil && result.sql.bindings.contains(.text("Fiction")))
        result = try fetch("Book", "$FETCH_SOURCE.category.name == category.name", ["FETCH_SOURCE": try book("The fifth book").predicateValue])
        #expect(result.titles == ["The fifth book"])
        result = try fetch("Book", "category == $b.category", ["b": try book("The fourth book").predicateValue])
        #expect(result.titles == ["The fourth book", "The third book"])
    }

    /// `ANY $list.title == title` over objects, and a to-many of a bound object.
    @Test func collectionsOfBoundObjectsAreReadElementByElement() throws {
        let list: PredicateValue = .array([try book("The first book").predicateValue, try book("The fifth book").predicateValue])
        var result = try fetch("Book", "title IN $list.title", ["list": list])
        #expect(result.titles == ["The fifth book", "The first book"])
        result = try fetch("Book", "ANY $list.title == 'The fifth book'", ["list": list])
        #expect(result.titles.count == 5)
        result = try fetch("Book", "SELF IN $c.books AND price > 12", ["c": fiction.predicateValue])
        #expect(result.titles == ["The second book"])
        #expect(result.sql.inMemoryPredicate == nil)
        result = try fetch("Book", "$c.books.@count == 2", ["c": fiction.predicateValue])
        #expect(result.titles.count == 5)
    }

    /// Key paths after a SUBQUERY's variable, with a bound object's values in the same
    /// subquery; and a SUBQUERY over a bound object's to-many.
    @Test func keyPathsAfterTheVariableOfASubquery() throws {
        var result = try fetch("BookCategory", "SUBQUERY(books, $b, $b.price > $x.price AND $b.category.name == $x.category.name).@count > 0", ["x": try book("The first book").predicateValue])
        #expect(result.titles == ["Fiction"])
        #expect(result.sql.inMemoryPredicate == nil)
        result = try fetch("Book", "SUBQUERY($c.books, $b, $b.price > 12).@count == 1", ["c": fiction.predicateValue])
        #expect(result.titles.count == 5)
        result = try fetch("BookCategory", "SUBQUERY(books, $b, SUBQUERY($c.books, $o, $o.price == $b.price).@count > 0).@count > 0", ["c": fiction.predicateValue])
        #expect(result.titles == ["Biography", "Fiction"])
    }

    /// An object that is gone makes the fetch fail rather than read nil.
    @Test func aBoundObjectThatIsGoneIsAnError() throws {
        let missing = ObjectID(mapping: try context.store.mapping(for: "Book"), primaryKey: 999)
        let request = FetchRequest(entityName: "Book", predicate: try ObjectPredicate(format: "price > $x.price").withSubstitutionVariables(["x": missing.predicateValue]))
        #expect(throws: StoreError.self) { try context.fetch(request) }
    }
}
