import Foundation
import GraphStore
import Testing
import TestScratch

/// Seed text in and out: CSV and JSON loaded as typed, validated objects in one transaction
/// (a bad row names file, line and property, and nothing of the file is kept), and written
/// back so that a seed round-trips through text.
@Suite struct SeedImportExportTests {
    static func newStore() throws -> (PersistentStore, ManagedObjectContext, NaturalKeys) {
        let model = try Fixtures.bookStoreModel()
        let store = try PersistentStore.create(at: try Fixtures.newStorePath(), model: model)
        return (store, ManagedObjectContext(store: store), try NaturalKeys(parsing: ["BookCategory=name", "Book=title"], model: model))
    }

    static func write(_ text: String, _ name: String) throws -> String {
        let path = try ScratchDirectory.make("seed-text").appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func load(_ path: String, _ entity: String, _ context: ManagedObjectContext, _ keys: NaturalKeys) throws -> Int {
        let records = try SeedFile.read(path, keys: keys, entity: entity, model: context.store.model)
        return try SeedImporter(context: context, keys: keys).load(records, entity: entity, file: (path as NSString).lastPathComponent)
    }

    @Test func csvAndJSONLoadTypedObjectsWithTheirRelationships() throws {
        let (store, context, keys) = try Self.newStore()
        #expect(try Self.load(try Self.write("name\nFiction\nBiography\n", "categories.csv"), "BookCategory", context, keys) == 2)
        let books = try Self.write("""
            [
              {"title": "Dune", "price": 18.5, "category": "Fiction"},
              {"title": "Lives, and more", "price": 20, "category": {"name": "Biography"}}
            ]
            """, "books.json")
        #expect(try Self.load(books, "Book", context, keys) == 2)
        let reader = ManagedObjectContext(store: store)
        let dune = try #require(try reader.fetch(FetchRequest(entityName: "Book", format: "title == 'Dune'")).first)
        #expect(try dune.value(forKey: "price") == .double(18.5))
        #expect(try dune.object(forKey: "category")?.value(forKey: "name") == .string("Fiction"))
    }

    @Test func aBadRowNamesFileLineAndPropertyAndNothingIsKept() throws {
        let (store, context, keys) = try Self.newStore()
        _ = try Self.load(try Self.write("name\nFiction\n", "categories.csv"), "BookCategory", context, keys)
        let cases: [(String, String)] = [
            ("title,price,category\nA,15,Fiction\nB,abc,Fiction\n", "books.csv:3: Book.price: \"abc\" is not a number"),
            ("title,price,category\nA,15,Fiction\nB,16,Poetry\n", "books.csv:3: Book.category: no BookCategory with name \"Poetry\""),
            ("title,price,colour\nA,15,red\n", "books.csv:2: Book.colour: no such attribute or relationship"),
            ("title,price,category\nA,15,Fiction\nA,16,Fiction\n", "books.csv:3: Book.title: \"A\" is already earlier in the file"),
            ("title,price\nA,15\nB\n", "books.csv:3: 1 cells, but the header names 2"),
        ]
        for (text, message) in cases {
            let path = try Self.write(text, "books.csv")
            #expect { try Self.load(path, "Book", context, keys) } throws: { "\($0)".hasSuffix(message) || "\($0)".hasPrefix(message) }
            #expect(!context.hasChanges)
        }
        #expect(try ManagedObjectContext(store: store).count(for: FetchRequest(entityName: "Book")) == 0)
    }

    @Test func aSeedRoundTripsThroughTextInBothFormats() throws {
        let (_, context, keys) = try Self.newStore()
        _ = try Self.load(try Self.write("name\nFiction\n\"Essays, \"\"mostly\"\"\"\n", "categories.csv"), "BookCategory", context, keys)
        _ = try Self.load(try Self.write("title,price,category\nOne,15.25,Fiction\n\"Two\nlines\",16,\"Essays, \"\"mostly\"\"\"\nThree,,\n", "books.csv"), "Book", context, keys)
        for format in ["csv", "json"] {
            let exported = try ScratchDirectory.make("export").appendingPathComponent("books.\(format)").path
            let categories = try ScratchDirectory.make("export").appendingPathComponent("categories.\(format)").path
            let exporter = SeedExporter(context: context, keys: keys)
            let (columns, records) = try exporter.records(of: "Book")
            try SeedFile.write(records, columns: columns, to: exported, entity: "Book", model: context.store.model)
            let (categoryColumns, categoryRecords) = try exporter.records(of: "BookCategory")
            try SeedFile.write(categoryRecords.map { SeedRecord(line: $0.line, fields: $0.fields.filter { $0.name == "name" }) }, columns: ["name"], to: categories)
            // Into a new store, then out again: the same text.
            let (_, copy, copyKeys) = try Self.newStore()
            _ = try Self.load(categories, "BookCategory", copy, copyKeys)
            _ = try Self.load(exported, "Book", copy, copyKeys)
            let again = try SeedExporter(context: copy, keys: copyKeys).records(of: "Book")
            let second = try ScratchDirectory.make("export").appendingPathComponent("again.\(format)").path
            try SeedFile.write(again.records, columns: again.columns, to: second, entity: "Book", model: context.store.model)
            #expect(try String(contentsOfFile: second, encoding: .utf8) == String(contentsOfFile: exported, encoding: .utf8), "\(format)")
            #expect(categoryColumns.contains("books"))
            if format == "json" {
                // Numbers stay numbers; text stays text.
                #expect(try String(contentsOfFile: exported, encoding: .utf8).contains(#"{"title": "One", "price": 15.25, "category": "Fiction"}"#))
            }
        }
    }

    /// A new store, loaded and then fetched from, is one file once the store is let go: a
    /// fetch's statements no longer keep SQLite's connection (and its -wal, -shm) open.
    @Test func aStoreLetGoAfterAFetchIsOneFile() throws {
        let path = try Fixtures.newStorePath("Seed.sqlite")
        do {
            let model = try Fixtures.bookStoreModel()
            let store = try PersistentStore.create(at: path, model: model)
            let context = ManagedObjectContext(store: store)
            let keys = try NaturalKeys(parsing: ["BookCategory=name"], model: model)
            #expect(try Self.load(try Self.write("name\nFiction\n", "categories.csv"), "BookCategory", context, keys) == 1)
            #expect(try context.count(for: FetchRequest(entityName: "BookCategory", format: "name MATCHES 'F.*'")) == 1)
            #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        }
        let folder = (path as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["Seed.sqlite"])
    }
}
