import Foundation
import Testing
@testable import GraphStore

/// Fetched properties evaluated on access, as Core Data evaluates them: an array of the
/// objects matching the predicate (with `$FETCH_SOURCE` and `$FETCHED_PROPERTY` bound),
/// compiled to SQL, fetched on first read and kept until the object is refreshed, never
/// stored and never set.
@Suite struct FetchedPropertyTests {
    /// The BookStore model with the Apress book's fetched property (`bargainBooks`, its
    /// predicate as the book's Xcode model writes it) and two more: one reading a key path
    /// from `$FETCH_SOURCE`, one reading `$FETCHED_PROPERTY.userInfo`, with an order and a limit.
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("BookCategory") {
                AttributeDescription("name", .string)
                RelationshipDescription("books", to: "Book", inverse: "category", toMany: true)
                FetchedPropertyDescription(name: "bargainBooks", entity: "Book", predicate: "SELF.price < 12 AND (SELF.category=$FETCH_SOURCE)")
            }
            EntityDescription("Book") {
                AttributeDescription("title", .string)
                AttributeDescription("price", .float)
                RelationshipDescription("category", to: "BookCategory", inverse: "books")
                FetchedPropertyDescription(
                    name: "sameCategory", entity: "Book", predicate: "category.name == $FETCH_SOURCE.category.name AND SELF != $FETCH_SOURCE",
                    sortKeys: [SortKey("title")])
                FetchedPropertyDescription(
                    name: "matchingTitles", entity: "Book", predicate: "title LIKE[c] $FETCHED_PROPERTY.userInfo.pattern",
                    sortKeys: [SortKey("price", ascending: false)], fetchLimit: 2, userInfo: ["pattern": "the*"])
            }
        }
    }

    let context: ManagedObjectContext
    let fiction: ManagedObject
    let biography: ManagedObject

    /// Fiction: The first book (10), The second book (15), A cheap novel (5); Biography:
    /// The third book (10), The fourth book (12). Saved.
    init() throws {
        context = ManagedObjectContext(store: try PersistentStore.create(at: try Fixtures.newStorePath(), model: try Self.model()))
        fiction = try context.insert("BookCategory")
        try fiction.set("name", "Fiction")
        biography = try context.insert("BookCategory")
        try biography.set("name", "Biography")
        for (title, price, category) in [
            ("The first book", 10.0, fiction), ("The second book", 15, fiction), ("A cheap novel", 5, fiction),
            ("The third book", 10, biography), ("The fourth book", 12, biography),
        ] {
            try book(title, price, category)
        }
        try context.save()
    }

    @discardableResult
    private func book(_ title: String, _ price: Double, _ category: ManagedObject) throws -> ManagedObject {
        let book = try context.insert("Book")
        try book.set("title", title)
        try book.set("price", price)
        try book.setObject(category, forKey: "category")
        return book
    }

    private func titles(_ object: ManagedObject, _ key: String) throws -> [String] {
        try object.objects(forKey: key).map { try $0.get("title", as: String.self) ?? "" }
    }

    private func book(titled title: String) throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest(entityName: "Book", format: "title == %@", title)).first)
    }

    /// The SQL a fetched property's fetch runs for `source`, as the context runs it.
    private func sql(_ key: String, of source: ManagedObject) throws -> GeneratedSQL {
        let property = try #require(context.store.model.fetchedProperty(key, of: source.entity.name))
        return try context.store.sql(for: try context.resolvingObjectConstants(try context.fetchRequest(of: property, for: source)))
    }

    /// The Apress BookStore's `bargainBooks` (Pro iOS Persistence, chapter 2's model):
    /// `SELF.price < 12 AND (SELF.category=$FETCH_SOURCE)`, all of it in SQL, the category
    /// bound by its key.
    @Test func bargainBooksAreTheCheapBooksOfTheCategory() throws {
        #expect(Set(try titles(fiction, "bargainBooks")) == ["The first book", "A cheap novel"])
        #expect(try titles(biography, "bargainBooks") == ["The third book"])
        let generated = try sql("bargainBooks", of: fiction)
        #expect(generated.inMemoryPredicate == nil)
        #expect(generated.bindings.contains(.integer(try #require(fiction.objectID.primaryKey))))
        #expect(try fiction.objectIDs(forKey: "bargainBooks").count == 2)
    }

    /// `$FETCH_SOURCE.category.name` is read once, from the object, and bound: no row is
    /// evaluated in memory. The model's sort key orders the array.
    @Test func aKeyPathFromTheFetchSourceIsABoundValue() throws {
        let first = try book(titled: "The first book")
        #expect(try titles(first, "sameCategory") == ["A cheap novel", "The second book"])
        let generated = try sql("sameCategory", of: first)
        #expect(generated.inMemoryPredicate == nil)
        #expect(generated.bindings.contains(.text("Fiction")))
        #expect(try titles(try book(titled: "The fourth book"), "sameCategory") == ["The third book"])
    }

    /// `$FETCHED_PROPERTY.userInfo.pattern` is the fetched property's user info (as Apple's
    /// `favoriteColor LIKE[c] $FETCHED_PROPERTY.userInfo.color`); the model's order and limit apply.
    @Test func theFetchedPropertysUserInfoIsReadByItsPredicate() throws {
        let first = try book(titled: "The first book")
        #expect(try titles(first, "matchingTitles") == ["The second book", "The fourth book"])
        let generated = try sql("matchingTitles", of: first)
        #expect(generated.inMemoryPredicate == nil)
        #expect(generated.bindings.contains(.text("the*")))
    }

    /// Fetched on first read, with unsaved changes, then kept: a later change shows only
    /// once the object is refreshed, reloaded or its context reset.
    @Test func theResultIsKeptUntilTheObjectIsRefreshed() throws {
        try book("An unsaved bargain", 3, fiction)
        #expect(try titles(fiction, "bargainBooks").count == 3)
        try book("Another bargain", 4, fiction)
        let cheaper = try book(titled: "The second book")
        try cheaper.set("price", 6.0)
        #expect(try titles(fiction, "bargainBooks").count == 3)
        try context.refresh(fiction, mergeChanges: true)
        #expect(Set(try titles(fiction, "bargainBooks")) == ["The first book", "A cheap novel", "An unsaved bargain", "Another bargain", "The second book"])
        try context.save()
        try cheaper.set("price", 20.0)
        #expect(try titles(fiction, "bargainBooks").count == 5)
        try context.reload([fiction])
        #expect(try titles(fiction, "bargainBooks").count == 4)
        try context.save()
        context.reset()
        let again = try #require(try context.fetch(FetchRequest(entityName: "BookCategory", format: "name == 'Fiction'")).first)
        #expect(try titles(again, "bargainBooks").count == 4)
    }

    /// An unsaved category's fetched property finds the unsaved books that point at it.
    @Test func anUnsavedSourceFindsTheUnsavedObjects() throws {
        let poetry = try context.insert("BookCategory")
        try poetry.set("name", "Poetry")
        try book("Odes", 8, poetry)
        try book("Sonnets", 30, poetry)
        #expect(try titles(poetry, "bargainBooks") == ["Odes"])
    }

    /// Core Data's value is an array: key paths and predicates read it as one.
    @Test func keyPathsAndPredicatesReadTheArray() throws {
        guard case .array(let books) = try fiction.predicateValue(forKeyPath: "bargainBooks") else {
            Issue.record("a fetched property is not an array")
            return
        }
        #expect(books.count == 2)
        #expect(try fiction.predicateValue(forKeyPath: "bargainBooks.@count").attributeValue == .integer(2))
        #expect(try ObjectPredicate(format: "ANY bargainBooks.title == 'A cheap novel'").evaluate(with: fiction))
        #expect(try !ObjectPredicate(format: "bargainBooks.@count > 1").evaluate(with: biography))
    }

    /// Not stored and not set: every write is refused by name, reading it as one value says
    /// how to read it, and reading it changes nothing.
    @Test func itIsReadOnlyAndNotStored() throws {
        let first = try book(titled: "The first book")
        _ = try fiction.objects(forKey: "bargainBooks")
        #expect(!fiction.hasChanges && !context.hasChanges)
        #expect(try fiction.changedValues().isEmpty)
        let readOnly = FetchedPropertyError.readOnly(entity: "BookCategory", key: "bargainBooks")
        #expect(throws: readOnly) { try fiction.setObjects([first], forKey: "bargainBooks") }
        #expect(throws: readOnly) { try fiction.add(first, toKey: "bargainBooks") }
        #expect(throws: readOnly) { try fiction.remove(first, fromKey: "bargainBooks") }
        #expect(throws: readOnly) { try fiction.setObject(first, forKey: "bargainBooks") }
        #expect(throws: readOnly) { try fiction.setValue(.string("x"), forKey: "bargainBooks") }
        let single = FetchedPropertyError.notASingleValue(entity: "BookCategory", key: "bargainBooks")
        #expect(throws: single) { try fiction.value(forKey: "bargainBooks") }
        #expect(throws: single) { try fiction.object(forKey: "bargainBooks") }
        #expect("\(single)".contains("objects(forKey:)"))
        #expect(throws: StoreError.unknownKey(entity: "BookCategory", key: "cheapBooks")) { try fiction.objects(forKey: "cheapBooks") }
        let columns = try #require(context.store.table(of: fiction.mapping)).columns.map(\.name)
        #expect(!columns.isEmpty && !columns.contains { $0.uppercased().contains("BARGAIN") })
    }

    /// A predicate that does not parse, or names a key the entity lacks, is an error naming
    /// the fetched property.
    @Test func aBrokenFetchedPropertyIsAnErrorNamingIt() throws {
        var model = try Self.model()
        var entities = model.entities
        let category = try #require(entities.firstIndex { $0.name == "BookCategory" })
        entities[category].fetchedProperties += [
            FetchedPropertyDescription(name: "garbled", entity: "Book", predicate: "price <"),
            FetchedPropertyDescription(name: "misspelt", entity: "Book", predicate: "prize < 12"),
        ]
        model = try ManagedObjectModel(entities: entities)
        let context = ManagedObjectContext(store: try PersistentStore.create(at: try Fixtures.newStorePath(), model: model))
        let poetry = try context.insert("BookCategory")
        do {
            _ = try poetry.objects(forKey: "garbled")
            Issue.record("a predicate that does not parse was run")
        } catch let error as FetchedPropertyError {
            guard case .invalidPredicate("BookCategory", "garbled", "price <", _) = error else { throw error }
        }
        do {
            _ = try poetry.objects(forKey: "misspelt")
            Issue.record("an unknown key path was run")
        } catch let error as FetchedPropertyError {
            guard case .fetchFailed("BookCategory", "misspelt", let reason) = error, reason.contains("prize") else { throw error }
        }
    }

    /// A model refuses a fetched property named like another property, or fetching an
    /// entity it does not have.
    @Test func theModelChecksFetchedProperties() throws {
        var entities = try Self.model().entities
        let category = try #require(entities.firstIndex { $0.name == "BookCategory" })
        var duplicate = entities
        duplicate[category].fetchedProperties.append(FetchedPropertyDescription(name: "name", entity: "Book", predicate: nil))
        #expect(throws: ModelError.duplicateProperty(entity: "BookCategory", property: "name")) { try ManagedObjectModel(entities: duplicate) }
        entities[category].fetchedProperties.append(FetchedPropertyDescription(name: "authors", entity: "Author", predicate: nil))
        #expect(throws: ModelError.unknownDestination(entity: "BookCategory", relationship: "authors", destination: "Author")) {
            try ManagedObjectModel(entities: entities)
        }
    }

    /// A class's typed accessor (what `graphstore codegen` generates) hands out the results
    /// as instances of their class.
    @Test func theTypedAccessorReadsTypedObjects() throws {
        let typed = ManagedObjectContext(store: context.store)
        let categories = try typed.fetch(FetchRequest<FetchedTestCategory>(format: "name == 'Biography'"))
        let books = try #require(categories.first).bargainBooks
        #expect(books.map(\.title) == ["The third book"])
        #expect(typed.accessErrors.isEmpty)
    }

    /// `graphstore codegen` writes a read-only accessor of the destination's class.
    @Test func generatedClassesReadFetchedProperties() throws {
        let files = ModelCodeGenerator(model: try Self.model(), includesManualEntities: true).files()
        let category = try #require(files.first { $0.name == "BookCategory.swift" }).contents
        #expect(category.contains("    public var bargainBooks: [Book] {\n        fetchedProperty(\"bargainBooks\")\n    }"))
        let book = try #require(files.first { $0.name == "Book.swift" }).contents
        #expect(book.contains("public var matchingTitles: [Book] {") && book.contains("public var sameCategory: [Book] {"))
    }

    /// Pro iOS Persistence, chapter 4 (Apress `Ch04/BookStore`): the store Core Data wrote,
    /// read with the book's own Xcode model and its `bargainBooks`.
    @Test func theApressSeedStoresBargainBooks() throws {
        guard let corpus = try Fixtures.requireCorpus("theApressSeedStoresBargainBooks") else { return }
        let model = try ModelFile(path: corpus.appendingPathComponent("models/Apress__pro-ios-persistence/Ch04/BookStore/BookStore/BookStore.xcdatamodeld").path).model
        #expect(model.entity(named: "BookCategory")?.fetchedProperties.map(\.name) == ["bargainBooks"])
        let seed = corpus.appendingPathComponent("stores/Apress__pro-ios-persistence/Ch04/BookStore/BookStore/seed.sqlite").path
        let context = ManagedObjectContext(store: try PersistentStore(path: seed, model: model))
        var bargains: [String: [String]] = [:]
        for category in try context.fetch(FetchRequest(entityName: "BookCategory")) {
            bargains[try category.get("name", as: String.self) ?? ""] = try category.objects(forKey: "bargainBooks").map { try $0.get("title", as: String.self) ?? "" }
        }
        #expect(bargains == ["Fiction": ["The first book"], "Biography": ["The third book"]])
    }
}

/// `BookCategory` with a typed fetched property, as generated code reads one.
final class FetchedTestCategory: ManagedObject, EntityObject {
    class var entityName: String { "BookCategory" }
    class var relatedClasses: [any EntityObject.Type] { [FetchedTestBook.self] }
    private static let propertyNames: PropertyNames<FetchedTestCategory> = [\.name: "name"]
    class func propertyName(for keyPath: AnyKeyPath) -> String? { propertyNames.name(for: keyPath) }

    var name: String? { attributeProperty("name") }
    var bargainBooks: [FetchedTestBook] { fetchedProperty("bargainBooks") }
}

final class FetchedTestBook: ManagedObject, EntityObject {
    class var entityName: String { "Book" }
    class var relatedClasses: [any EntityObject.Type] { [FetchedTestCategory.self] }
    private static let propertyNames: PropertyNames<FetchedTestBook> = [\.title: "title"]
    class func propertyName(for keyPath: AnyKeyPath) -> String? { propertyNames.name(for: keyPath) }

    var title: String? { attributeProperty("title") }
}
