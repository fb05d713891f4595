import Foundation
import GraphStore
import Testing
import TestScratch

/// `export --ids` / `import --ids`: objects of an entity with no natural key (the bookstore's
/// pages) are named by object ID, and an import into a new store gives each the same ID, so
/// relationships to them (a book's ordered pages) come back whole.
@Suite struct ObjectIDSeedTests {
    typealias Seeds = SeedImportExportTests

    /// Keys naming books and categories; pages by object ID.
    static func keys(_ model: ManagedObjectModel) throws -> NaturalKeys {
        var keys = try NaturalKeys(parsing: ["BookCategory=name", "Book=title"], model: model)
        keys.keepsObjectIDs = true
        return keys
    }

    /// A store with one book of three pages, saved after a few objects were made and
    /// deleted, so that the pages' keys are not 1, 2, 3.
    static func source() throws -> ManagedObjectContext {
        let (store, context, _) = try Seeds.newStore()
        for _ in 0..<4 { _ = try context.insert("Page") }
        try context.save()
        for page in try context.fetch("Page") { try context.delete(page) }
        try context.save()
        let fiction = try context.insert("BookCategory")
        try fiction.set("name", "Fiction")
        let book = try context.insert("Book")
        try book.set("title", "Dune")
        try book.setObject(fiction, forKey: "category")
        let pages = try ["one", "two", "three"].map { text in
            let page = try context.insert("Page")
            try page.set("text", text)
            return page
        }
        try book.setObjects([pages[2], pages[0], pages[1]], forKey: "pages")
        try context.save()
        return ManagedObjectContext(store: store)
    }

    /// Writes an entity's export to a CSV file, leaving out `without` (the side of a pair
    /// the other file carries), and loads it into `target`.
    static func copy(_ entity: String, without: Set<String> = [], from source: ManagedObjectContext, into target: ManagedObjectContext, keys: NaturalKeys) throws -> String {
        let (columns, records) = try SeedExporter(context: source, keys: keys).records(of: entity)
        let path = try ScratchDirectory.make("object-ids").appendingPathComponent("\(entity).csv").path
        let kept = records.map { SeedRecord(line: $0.line, fields: $0.fields.filter { !without.contains($0.name) }) }
        try SeedFile.write(kept, columns: columns.filter { !without.contains($0) }, to: path, entity: entity, model: source.store.model)
        _ = try Seeds.load(path, entity, target, keys)
        return path
    }

    @Test func pagesKeepTheirObjectIDsAndTheirOrder() throws {
        let source = try Self.source()
        let keys = try Self.keys(source.store.model)
        let (store, target, _) = try Seeds.newStore()
        let pagesFile = try Self.copy("Page", without: ["book"], from: source, into: target, keys: keys)
        #expect(try String(contentsOfFile: pagesFile, encoding: .utf8).hasPrefix("@id,text\np5,one\n"))
        _ = try Self.copy("BookCategory", without: ["books"], from: source, into: target, keys: keys)
        _ = try Self.copy("Book", from: source, into: target, keys: keys)

        let reader = ManagedObjectContext(store: try PersistentStore(path: store.path, model: store.model))
        let book = try #require(try reader.fetch("Book").first)
        let originalPages = try #require(try source.fetch("Book").first).objects(forKey: "pages")
        #expect(try book.objects(forKey: "pages").map(\.objectID.primaryKey) == originalPages.map(\.objectID.primaryKey))
        #expect(try book.objects(forKey: "pages").map { try $0.get("text", as: String.self) } == ["three", "one", "two"])
        // A page made afterwards is numbered above the imported ones.
        let writer = ManagedObjectContext(store: try PersistentStore(path: store.path, model: store.model, readOnly: false))
        let later = try writer.insert("Page")
        try writer.save()
        #expect(later.objectID.primaryKey == 8)
    }

    @Test func anObjectIDTheStoreHasIsRefusedAndNothingIsKept() throws {
        let source = try Self.source()
        let keys = try Self.keys(source.store.model)
        let (store, target, _) = try Seeds.newStore()
        let path = try Self.copy("Page", without: ["book"], from: source, into: target, keys: keys)
        #expect { try Seeds.load(path, "Page", target, keys) } throws: {
            "\($0)".contains("Page.csv:2: Page.@id: Page/p5 cannot be given that object ID: the store already has Page/p5")
        }
        #expect(try ManagedObjectContext(store: store).count(for: FetchRequest(entityName: "Page")) == 3)
        // Without --ids the column is refused rather than ignored.
        #expect { try Seeds.load(path, "Page", ManagedObjectContext(store: store), try NaturalKeys(parsing: [], model: store.model)) } throws: {
            "\($0)".contains("Page.@id: holds object IDs written by export --ids; import with --ids to keep them")
        }
        let twice = try Seeds.write("@id,text\np9,a\np9,b\n", "Page.csv")
        #expect { try Seeds.load(twice, "Page", ManagedObjectContext(store: store), keys) } throws: {
            "\($0)".contains("Page.csv:3: Page.@id: Page/p9 cannot be given that object ID: another new object is given it too")
        }
        let notAnID = try Seeds.write("@id,text\nx9,a\n", "Page.csv")
        #expect { try Seeds.load(notAnID, "Page", ManagedObjectContext(store: store), keys) } throws: {
            "\($0)".contains("Page.@id: expected an object ID's number such as p3")
        }
    }

    @Test func withoutIDsAnExportLeavesOutAndNamesWhatItCannotWrite() throws {
        let source = try Self.source()
        let plain = try NaturalKeys(parsing: ["BookCategory=name", "Book=title"], model: source.store.model)
        #expect(try SeedExporter(context: source, keys: plain).records(of: "Book").columns == ["title", "price", "category"])
        #expect(SeedExporter(context: source, keys: plain).leftOut(of: "Book").map(\.relationship) == ["pages"])
        let keys = try Self.keys(source.store.model)
        #expect(try SeedExporter(context: source, keys: keys).records(of: "Book").columns == ["title", "price", "category", "pages"])
        #expect(SeedExporter(context: source, keys: keys).leftOut(of: "Book").isEmpty)
    }
}
