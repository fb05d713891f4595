import Foundation
import Testing
@testable import GraphStore

/// `changedValues()` and `committedValues(forKeys:)` as Core Data's: an insert's values are
/// its changes, so `willSave` logic that acts on changes runs on inserts too.
@Suite struct ChangedValuesTests {
    private func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Country") {
                AttributeDescription("name", .string)
                AttributeDescription("numberOfMoods", .integer64).defaultValue(.integer(0))
                AttributeDescription("note", .string)
                RelationshipDescription("moods", to: "Mood", inverse: "country", toMany: true)
            }
            EntityDescription("Mood") {
                AttributeDescription("colors", .string)
                RelationshipDescription("country", to: "Country", inverse: "moods")
            }
        }
    }

    /// objc.io Moody's `Country.willSave()` (its `updateMoodCount`): the count is kept up to
    /// date whenever the moods changed, an insert included.
    final class Country: ManagedObject {
        override func willSave() {
            guard !isDeleted, (try? changedValues())?["moods"] != nil, let count = try? objects(forKey: "moods").count else { return }
            try? setPrimitiveValue(.integer(Int64(count)), forKey: "numberOfMoods")
        }
    }

    @Test func anInsertsChangedValuesAreEveryValueItHas() throws {
        let (context, path) = try ValidationFixtures.newContext(try model())
        context.register(Country.self, forEntity: "Country")
        let country = try context.insert("Country")
        try country.set("name", "Iceland")
        for _ in 0..<2 { try context.insert("Mood").setObject(country, forKey: "country") }
        let changed = try country.changedValues()
        #expect(Set(changed.keys) == ["name", "numberOfMoods", "moods"])
        #expect(changed["name"]?.attributeValue == .string("Iceland"))
        #expect(changed["moods"]?.objects.count == 2)
        #expect(country.changedKeys() == ["name", "numberOfMoods", "moods"])
        #expect(try country.committedValues(forKeys: nil).isEmpty)
        try context.save()
        #expect(try ValidationFixtures.rows(path, "SELECT ZNAME, ZNUMBEROFMOODS FROM ZCOUNTRY") == [["Iceland", "2"]])
    }

    @Test func anUpdatesChangedValuesAreItsChangesAndCommittedValuesTheStoredOnes() throws {
        let (context, path) = try ValidationFixtures.newContext(try model())
        let country = try context.insert("Country")
        try country.set("name", "Iceland")
        try context.save()
        #expect(try country.changedValues().isEmpty)
        let other = try ValidationFixtures.reopen(path, try model())
        let stored = try other.existingObject(entity: "Country", primaryKey: 1)
        try stored.set("name", "Ísland")
        try stored.set("note", "renamed")
        let changed = try stored.changedValues()
        #expect(Set(changed.keys) == ["name", "note"])
        #expect(changed["note"]?.attributeValue == .string("renamed"))
        let committed = try stored.committedValues(forKeys: ["name", "note", "moods"])
        #expect(committed["name"]?.attributeValue == .string("Iceland"))
        #expect(committed["note"].map { $0.attributeValue == nil } == true)
        #expect(committed["moods"]?.objects.isEmpty == true)
        #expect(throws: StoreError.unknownKey(entity: "Country", key: "nope")) { try stored.committedValues(forKeys: ["nope"]) }
    }

    @Test func aToOnesCommittedValueIsTheDestinationItHadWhenRead() throws {
        let (context, path) = try ValidationFixtures.newContext(try model())
        let iceland = try context.insert("Country")
        try iceland.set("name", "Iceland")
        let norway = try context.insert("Country")
        try norway.set("name", "Norway")
        try context.insert("Mood").setObject(iceland, forKey: "country")
        try context.save()
        let other = try ValidationFixtures.reopen(path, try model())
        let mood = try other.existingObject(entity: "Mood", primaryKey: 1)
        try mood.setObject(try other.existingObject(entity: "Country", primaryKey: 2), forKey: "country")
        #expect(try mood.changedValues()["country"]?.objects.map(\.objectID.primaryKey) == [2])
        #expect(try mood.committedValues(forKeys: ["country"])["country"]?.objects.map(\.objectID.primaryKey) == [1])
    }
}

/// Core Data's other change-tracking hooks: `changedValuesForCurrentEvent()` and
/// `prepareForDeletion()`.
@Suite struct EventChangeTrackingTests {
    /// Keeps its category's count of books as books go (a `prepareForDeletion` as Core Data
    /// apps write one).
    final class CountedBook: ManagedObject {
        override func prepareForDeletion() {
            guard let category = try? object(forKey: "category"), let name = try? category.get("name", as: String.self) else { return }
            try? category.set("name", name + " −1")
        }
    }

    @Test func changedValuesForCurrentEventAreThoseSinceTheLastEvent() throws {
        let (context, _) = try ValidationFixtures.newContext(try Fixtures.bookStoreModel())
        let book = try context.insert("Book")
        try book.set("title", "Dune")
        #expect(Set(try book.changedValuesForCurrentEvent().keys) == ["title"])
        try context.save()
        try book.set("price", 9.0)
        context.processPendingChanges()
        #expect(try book.changedValuesForCurrentEvent().isEmpty)
        try book.set("title", "Arrakis")
        let changed = try book.changedValuesForCurrentEvent()
        #expect(Set(changed.keys) == ["title"])
        #expect(changed["title"]?.attributeValue == .string("Arrakis"))
        #expect(Set(try book.changedValues().keys) == ["title", "price"])
    }

    @Test func prepareForDeletionRunsBeforeTheDeleteRules() throws {
        let (context, _) = try ValidationFixtures.newContext(try Fixtures.bookStoreModel())
        context.register(CountedBook.self, forEntity: "Book")
        let fiction = try context.insert("BookCategory")
        try fiction.set("name", "Fiction")
        let book = try context.insert("Book")
        try book.setObject(fiction, forKey: "category")
        try context.save()
        try context.delete(book)
        #expect(try fiction.get("name", as: String.self) == "Fiction −1")
        #expect(try fiction.objects(forKey: "books").isEmpty)
    }
}
