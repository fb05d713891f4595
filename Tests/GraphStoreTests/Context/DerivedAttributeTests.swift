import Foundation
import Testing
@testable import GraphStore

/// Derived attributes are recomputed by every save, in its transaction, and the saved
/// objects show the stored value afterwards; a derivation GraphStore cannot compute is
/// refused when the model is built.
@Suite struct DerivedAttributeTests {
    /// Book (with sub-entity GraphicNovel) 1—* Page, with one derived attribute of each kind.
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Book") {
                AttributeDescription("title", .string)
                AttributeDescription("pagesCount", .integer64).derived("pages.@count")
                AttributeDescription("wordsTotal", .integer64).derived("pages.words.@sum")
                AttributeDescription("searchTitle", .string).derived("canonical:(title)")
                AttributeDescription("shoutedTitle", .string).derived("uppercase:(title)")
                AttributeDescription("saved", .date).derived("now()")
                RelationshipDescription("pages", to: "Page", inverse: "book", toMany: true)
            }
            EntityDescription("GraphicNovel", parent: "Book") {
                AttributeDescription("artist", .string)
            }
            EntityDescription("Page") {
                AttributeDescription("words", .integer32)
                AttributeDescription("bookTitle", .string).derived("book.title")
                RelationshipDescription("book", to: "Book", inverse: "pages")
            }
        }
    }

    private func rows(_ path: String, _ sql: String) throws -> [[String]] {
        try Connection(path: path, mode: .readOnly).rows(sql).map { $0.map(\.description) }
    }

    @Test func aSaveComputesEveryKindAndTheObjectsShowIt() throws {
        let path = try Fixtures.newStorePath()
        let context = ManagedObjectContext(store: try PersistentStore.create(at: path, model: Self.model()))
        let book = try context.insert("Book")
        try book.set("title", "Élan vital")
        let novel = try context.insert("GraphicNovel")
        try novel.set("title", "Drawn")
        for words in [100, 250] {
            let page = try context.insert("Page")
            try page.set("words", words)
            try page.setObject(book, forKey: "book")
        }
        try context.save()
        #expect(try rows(path, "SELECT ZTITLE, ZPAGESCOUNT, ZWORDSTOTAL, ZSEARCHTITLE, ZSHOUTEDTITLE FROM ZBOOK ORDER BY Z_PK")
            == [["Élan vital", "2", "350", "elan vital", "ÉLAN VITAL"], ["Drawn", "0", "0", "drawn", "DRAWN"]])
        #expect(try rows(path, "SELECT COUNT(*) FROM ZBOOK WHERE ZSAVED IS NULL") == [["0"]])
        #expect(try rows(path, "SELECT ZBOOKTITLE FROM ZPAGE") == [["Élan vital"], ["Élan vital"]])
        #expect(try book.get("pagesCount", as: Int.self) == 2)
        #expect(try book.get("searchTitle", as: String.self) == "elan vital")
        #expect(try book.value(forKey: "saved") != nil)
        #expect(try novel.get("pagesCount", as: Int.self) == 0)
        #expect(!context.hasChanges)
    }

    @Test func linkingAPageUpdatesTheCountInTheStoreTheObjectAndAFetch() throws {
        let path = try Fixtures.newStorePath()
        let context = ManagedObjectContext(store: try PersistentStore.create(at: path, model: Self.model()))
        let book = try context.insert("Book")
        try book.set("title", "One")
        try context.save()
        #expect(try book.get("pagesCount", as: Int.self) == 0)
        let page = try context.insert("Page")
        try page.setObject(book, forKey: "book")
        try context.save()
        #expect(try rows(path, "SELECT ZPAGESCOUNT FROM ZBOOK") == [["1"]])
        #expect(try book.get("pagesCount", as: Int.self) == 1)
        #expect(try context.fetch("Book").first?.get("pagesCount", as: Int.self) == 1)
        try context.delete(page)
        try context.save()
        #expect(try rows(path, "SELECT ZPAGESCOUNT FROM ZBOOK") == [["0"]])
        #expect(try book.get("pagesCount", as: Int.self) == 0)
    }

    @Test func aChangedSourceUpdatesObjectsTheSaveDidNotWrite() throws {
        let path = try Fixtures.newStorePath()
        let context = ManagedObjectContext(store: try PersistentStore.create(at: path, model: Self.model()))
        let book = try context.insert("Book")
        try book.set("title", "Before")
        let page = try context.insert("Page")
        try page.setObject(book, forKey: "book")
        try page.set("words", 5)
        try context.save()
        try book.set("title", "After")
        try context.save()
        // The page was not saved; its copy of the title is recomputed and shown.
        #expect(try rows(path, "SELECT ZBOOKTITLE FROM ZPAGE") == [["After"]])
        #expect(try page.get("bookTitle", as: String.self) == "After")
        try page.set("words", 7)
        try context.save()
        #expect(try book.get("wordsTotal", as: Int.self) == 7)
        #expect(try rows(path, "SELECT ZWORDSTOTAL FROM ZBOOK") == [["7"]])
    }

    @Test func aStoreWithCoreDataTriggersStaysRightAndTheObjectShowsTheStoredValue() throws {
        let path = try Fixtures.newStorePath()
        _ = try PersistentStore.create(at: path, model: Self.model())
        // The shapes of Core Data's triggers: a count kept by increments, a now() stamp,
        // each reporting to a function only Core Data (and GraphStore) registers.
        try Connection(path: path, mode: .readWrite).executeScript("""
            DROP TRIGGER Z_DA_ZPAGE_Book_pagesCount_PARAMETER_INSERT; DROP TRIGGER Z_DA_ZBOOK_Book_saved_UPDATE;
            CREATE TRIGGER Z_DA_ZPAGE_Book_pagesCount_PARAMETER_INSERT AFTER INSERT ON ZPAGE FOR EACH ROW WHEN (NEW.ZBOOK NOT NULL)
            BEGIN UPDATE ZBOOK SET ZPAGESCOUNT = IFNULL(ZPAGESCOUNT, 0) + 1 WHERE Z_PK = NEW.ZBOOK;
            SELECT NSCoreDataDATriggerInsertUpdatedAffectedObjectValue('ZBOOK', Z_ENT, Z_PK, 'pagesCount', ZPAGESCOUNT) FROM ZBOOK WHERE Z_PK = NEW.ZBOOK; END;
            CREATE TRIGGER Z_DA_ZBOOK_Book_saved_UPDATE AFTER UPDATE OF Z_OPT ON ZBOOK FOR EACH ROW
            BEGIN UPDATE ZBOOK SET ZSAVED = NSCoreDataNow() WHERE Z_PK = NEW.Z_PK;
            SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('ZBOOK', Z_ENT, Z_PK, 'saved', ZSAVED) FROM ZBOOK WHERE Z_PK = NEW.Z_PK; END;
            """)
        let context = ManagedObjectContext(store: try PersistentStore(path: path, model: Self.model(), readOnly: false))
        let book = try context.insert("Book")
        try context.save()
        for _ in 0..<3 {
            let page = try context.insert("Page")
            try page.setObject(book, forKey: "book")
        }
        try context.save()
        #expect(try rows(path, "SELECT ZPAGESCOUNT FROM ZBOOK") == [["3"]])
        #expect(try book.get("pagesCount", as: Int.self) == 3)
        #expect(try context.fetch(FetchRequest(entityName: "Book", format: "pagesCount == 3")).count == 1)
    }

    @Test func aNewStoreKeepsItsDerivedValuesWithTriggersForAnyWriter() throws {
        let path = try Fixtures.newStorePath()
        _ = try PersistentStore.create(at: path, model: Self.model())
        let names = try rows(path, "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name").map { $0[0] }
        #expect(names.contains("Z_DA_ZPAGE_Book_pagesCount_PARAMETER_INSERT"))
        #expect(names.contains("Z_DA_ZBOOK_Book_pagesCount_SOURCE_INSERT"))
        #expect(names.contains("Z_DA_ZBOOK_Book_saved_UPDATE"))
        // Another writer, with Core Data's functions registered as Core Data registers them.
        let writer = try Connection(path: path, mode: .readWrite)
        for name in ["NSCoreDataDATriggerUpdatedAffectedObjectValue", "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue"] {
            try writer.registerFunction(name, argumentCount: 5) { _ in .null }
        }
        try writer.registerFunction("NSCoreDataNow", argumentCount: 0, deterministic: false) { _ in .real(1000) }
        try writer.executeScript("""
            INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES (1, 1, 1, 'A'), (2, 1, 1, 'B');
            INSERT INTO ZPAGE (Z_PK, Z_ENT, Z_OPT, ZBOOK, ZWORDS) VALUES (1, 3, 1, 1, 10), (2, 3, 1, 1, 20), (3, 3, 1, 2, 5);
            UPDATE ZPAGE SET ZBOOK = 2, Z_OPT = 2 WHERE Z_PK = 2;
            DELETE FROM ZPAGE WHERE Z_PK = 3;
            UPDATE ZBOOK SET ZTITLE = 'Bee', Z_OPT = 2 WHERE Z_PK = 2;
            """)
        let books = try rows(path, "SELECT Z_PK, ZPAGESCOUNT, ZWORDSTOTAL, ZSAVED FROM ZBOOK ORDER BY Z_PK")
        #expect(books == [["1", "1", "10", "1000"], ["2", "1", "20", "1000"]])
        #expect(try rows(path, "SELECT Z_PK, ZBOOKTITLE FROM ZPAGE ORDER BY Z_PK") == [["1", "A"], ["2", "Bee"]])
    }

    @Test func aDerivationThatCannotBeComputedIsRefusedWhenTheModelIsBuilt() throws {
        func build(_ expression: String, _ type: AttributeType = .integer64) throws {
            _ = try ManagedObjectModel {
                EntityDescription("Book") {
                    AttributeDescription("title", .string)
                    AttributeDescription("derived", type).derived(expression)
                    RelationshipDescription("pages", to: "Page", inverse: "book", toMany: true)
                }
                EntityDescription("Page") {
                    RelationshipDescription("book", to: "Book", inverse: "pages")
                }
            }
        }
        try build("pages.@count")
        #expect(throws: ModelError.self) { try build("pages.@avg") }
        #expect(throws: ModelError.self) { try build("missing.@count") }
        #expect(throws: ModelError.self) { try build("now()") }
        #expect(throws: ModelError.self) { try build("lowercase:(title)") }
        do {
            try build("title.length")
            Issue.record("a key path through an attribute was accepted")
        } catch let error as ModelError {
            #expect(error.description == "Book.derived: derivation title.length cannot be computed: title is not a stored to-one relationship of Book")
        }
    }

    @Test func aModelFileWithAnUncomputableDerivationWarnsAndReadsItAsAPlainAttribute() throws {
        let file = try ModelFile(path: XcodeModelFixtures.writeModel("""
            <entity name="Note" representedClassName="Note">
                <attribute name="title" optional="YES" attributeType="String"/>
                <attribute name="count" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="tags.@avg"/>
                <attribute name="lower" optional="YES" attributeType="String" derived="YES" derivationExpression="lowercase:(title)"/>
                <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note"/>
            </entity>
            """))
        #expect(file.model.entity(named: "Note")?.attribute(named: "count")?.derivationExpression == nil)
        #expect(file.model.entity(named: "Note")?.attribute(named: "lower")?.derivationExpression == "lowercase:(title)")
        #expect(file.warnings.map(\.description).contains { $0.contains("count") && $0.contains("tags.@avg cannot be computed") })
    }
}
