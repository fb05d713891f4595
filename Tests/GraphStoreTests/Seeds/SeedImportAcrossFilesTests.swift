import Foundation
import GraphStore
import Testing
import TestScratch

/// Several seed files loaded as one: every object of every file is made before any
/// relationship is set, so files name each other's objects in any order (a cycle of
/// entities, a record naming a later one), all saved in one transaction or none; and the
/// empty string and no value kept apart in CSV.
@Suite struct SeedImportAcrossFilesTests {
    typealias Seeds = SeedImportExportTests

    static func loads(_ files: [(entity: String, name: String, text: String)], keys: NaturalKeys, model: ManagedObjectModel) throws -> [SeedLoad] {
        try files.map { file in
            let path = try Seeds.write(file.text, file.name)
            return SeedLoad(entity: file.entity, file: file.name, records: try SeedFile.read(path, keys: keys, entity: file.entity, model: model))
        }
    }

    @Test func filesNameEachOthersObjectsInAnyOrder() throws {
        let (store, context, keys) = try Seeds.newStore()
        // Categories name books loaded after them; pages name a book.
        let loads = try Self.loads([
            ("BookCategory", "categories.csv", "name,books\nFiction,Dune|Emma\nBiography,Lives\n"),
            ("Page", "pages.csv", "text,book\none,Dune\ntwo,Dune\n"),
            ("Book", "books.csv", "title,price\nDune,20\nEmma,22\nLives,30\n"),
        ], keys: keys, model: store.model)
        #expect(try SeedImporter(context: context, keys: keys).load(loads) == [2, 2, 3])
        let reader = ManagedObjectContext(store: store)
        let books = try reader.fetch(FetchRequest(entityName: "Book", format: "category.name == 'Fiction'"))
        #expect(Set(try books.map { try $0.value(forKey: "title") }) == [.string("Dune"), .string("Emma")])
        let dune = try #require(try reader.fetch(FetchRequest(entityName: "Book", format: "title == 'Dune'")).first)
        #expect(try dune.objects(forKey: "pages").map { try $0.value(forKey: "text") } == [.string("one"), .string("two")])
        #expect(try reader.count(for: FetchRequest(entityName: "Book", format: "category.name == 'Biography'")) == 1)
    }

    @Test func aBadRecordInAnyFileKeepsNothingOfAny() throws {
        let (store, context, keys) = try Seeds.newStore()
        let loads = try Self.loads([
            ("BookCategory", "categories.csv", "name\nFiction\n"),
            ("Book", "books.csv", "title,price,category\nDune,20,Fiction\nEmma,22,Poetry\n"),
        ], keys: keys, model: store.model)
        #expect { try SeedImporter(context: context, keys: keys).load(loads) } throws: {
            "\($0)" == "books.csv:3: Book.category: no BookCategory with name \"Poetry\""
        }
        #expect(!context.hasChanges)
        #expect(try ManagedObjectContext(store: store).count(for: FetchRequest(entityName: "BookCategory")) == 0)
    }

    @Test func aKeyAlreadyInAnotherFileNamesThatFile() throws {
        let (store, context, keys) = try Seeds.newStore()
        let loads = try Self.loads([
            ("Book", "old.csv", "title,price\nDune,20\n"),
            ("Book", "new.csv", "title,price\nEmma,22\nDune,25\n"),
        ], keys: keys, model: store.model)
        #expect { try SeedImporter(context: context, keys: keys).load(loads) } throws: {
            "\($0)" == "new.csv:3: Book.title: \"Dune\" is already in old.csv"
        }
    }

    /// A key through a to-one (`Book=title+category`) is known only once the to-one is set:
    /// the book is matched by it after its category is found, whichever file comes first.
    @Test func aKeyThroughAToOneIsMatchedOnceItsToOneIsSet() throws {
        let (store, context, _) = try Seeds.newStore()
        let keys = try NaturalKeys(parsing: ["BookCategory=name", "Book=title+category"], model: store.model)
        let loads = try Self.loads([
            ("Page", "pages.csv", "text,book\none,\"[\"\"Dune\"\",\"\"Fiction\"\"]\"\n"),
            ("Book", "books.csv", "title,price,category\nDune,20,Fiction\nDune,21,Biography\n"),
            ("BookCategory", "categories.csv", "name\nFiction\nBiography\n"),
        ], keys: keys, model: store.model)
        #expect(try SeedImporter(context: context, keys: keys).load(loads) == [1, 2, 2])
        let reader = ManagedObjectContext(store: store)
        let page = try #require(try reader.fetch(FetchRequest(entityName: "Page")).first)
        let book = try #require(try page.object(forKey: "book"))
        #expect(try book.object(forKey: "category")?.value(forKey: "name") == .string("Fiction"))
    }

    /// `""` is the empty string and an empty cell no value, as PostgreSQL's CSV reads them;
    /// the export writes them so.
    @Test func csvKeepsTheEmptyStringApartFromNoValue() throws {
        let (store, context, keys) = try Seeds.newStore()
        let path = try Seeds.write("text\n\"\"\n\nwords\n\"\"\n", "pages.csv")
        let records = try SeedFile.read(path, keys: keys, entity: "Page", model: store.model)
        #expect(records.map { $0.fields[0].value } == [.text(""), .text("words"), .text("")])
        let withNoValue = try Seeds.write("text,book\n,\n\"\",\n", "pages.csv")
        _ = try Seeds.load(withNoValue, "Page", context, keys)
        let texts = try ManagedObjectContext(store: store).fetch(FetchRequest(entityName: "Page")).map { try $0.value(forKey: "text") }
        #expect(texts.count == 2 && texts.contains(nil) && texts.contains(.string("")))
        let (columns, exported) = try SeedExporter(context: context, keys: keys).records(of: "Page")
        let out = try ScratchDirectory.make("export").appendingPathComponent("pages.csv").path
        try SeedFile.write(exported, columns: columns.filter { $0 == "text" }, to: out, entity: "Page", model: store.model)
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(Set(lines.dropFirst().dropLast()) == ["", "\"\""])
    }
}

