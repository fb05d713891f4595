import CSQLiteRaw
import Foundation
import GraphStore

/// `validate` on a generated store of 300,000 books on 300 shelves, with a rule on every
/// attribute, a uniqueness constraint and relationship counts; 1% of the books are broken
/// behind the library's back. Also times saving the books through a context (validation
/// included) for comparison.
enum Validate {
    static let model: ManagedObjectModel = {
        do {
            return try ManagedObjectModel {
                EntityDescription("Shelf") {
                    AttributeDescription("name", .string).required()
                    RelationshipDescription("books", to: "Book", inverse: "shelf", toMany: true).count(1...1_000).deleteRule(.deny)
                }
                EntityDescription("Book") {
                    AttributeDescription("title", .string).required().length(1...40)
                    AttributeDescription("isbn", .string).pattern("[0-9]{3}-[0-9]{6}")
                    AttributeDescription("price", .double).minimum(1).maximum(500)
                    AttributeDescription("pages", .integer16).minimum(1)
                    AttributeDescription("published", .date).dates(from: Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: 2_000_000_000))
                    RelationshipDescription("shelf", to: "Shelf", inverse: "books").required()
                    Unique("isbn")
                }
            }
        } catch {
            fatalError("the benchmark model is invalid: \(error)")
        }
    }()

    static func run() throws {
        let books = Int(300_000 * benchmarkScale)
        let shelves = max(1, books / 1_000)
        print("Validate: \(books) books on \(shelves) shelves, 1% broken")
        let path = scratchPath("validate.sqlite")
        var kept: [ManagedObjectContext] = []
        _ = try measure("insert + save through a context (validated)", runs: 1, setUp: { removeStore(path) }) {
            kept.append(try fill(path, books: books, shelves: shelves))
        }
        kept.removeAll()
        try breakOnePercent(path, books: books)
        let store = try PersistentStore(path: path, model: model)
        var failures = 0
        var checked = 0
        let whole = try measure("validate the whole store") {
            let summary = try StoreValidator(store: store).validate { _ in }
            (failures, checked) = (summary.failures, summary.objectsChecked)
        }
        print(String(format: "    %d objects checked, %d failures, %.0f objects/s", checked, failures, Double(checked) / whole.wall))
        let predicate = try ObjectPredicate(format: "price < 10")
        _ = try measure("validate Book where price < 10") {
            let summary = try StoreValidator(store: store).validate(entity: "Book", where: predicate) { _ in }
            (failures, checked) = (summary.failures, summary.objectsChecked)
        }
        print("    \(checked) objects matched, \(failures) failures")
    }

    /// Books with valid values (price 1…500, 100…999 pages, unique ISBNs), saved at once.
    static func fill(_ path: String, books: Int, shelves: Int) throws -> ManagedObjectContext {
        let context = ManagedObjectContext(store: try PersistentStore.create(at: path, model: model))
        let shelfObjects = try (0..<shelves).map { i -> ManagedObject in
            let shelf = try context.insert("Shelf")
            try shelf.setValue(.string("shelf \(i)"), forKey: "name")
            return shelf
        }
        for i in 0..<books {
            let book = try context.insert("Book")
            try book.setValue(.string("Book number \(i)"), forKey: "title")
            try book.setValue(.string(String(format: "%03d-%06d", i / 1_000_000 + 100, i % 1_000_000)), forKey: "isbn")
            try book.setValue(.double(Double(1 + i % 500)), forKey: "price")
            try book.setValue(.integer(Int64(100 + i % 900)), forKey: "pages")
            try book.setValue(.date(Date(timeIntervalSince1970: Double(i) * 1_000)), forKey: "published")
            try book.setObject(shelfObjects[i % shelves], forKey: "shelf")
        }
        try context.save()
        return context
    }

    /// Breaks one book in a hundred, a different way each time: price 0, no title, a
    /// duplicate ISBN, no shelf, a shelf that does not exist.
    static func breakOnePercent(_ path: String, books: Int) throws {
        var db: OpaquePointer?
        guard sqlite3_open(path, &db) == SQLITE_OK else { throw BenchmarkError("cannot open \(path)") }
        defer { sqlite3_close(db) }
        let sql = """
            BEGIN;
            DROP INDEX IF EXISTS Z_Book_UNIQUE_isbn;
            UPDATE ZBOOK SET ZPRICE = 0 WHERE Z_PK % 500 = 1;
            UPDATE ZBOOK SET ZTITLE = NULL WHERE Z_PK % 500 = 101;
            UPDATE ZBOOK SET ZISBN = '100-000000' WHERE Z_PK % 500 = 201;
            UPDATE ZBOOK SET ZSHELF = NULL WHERE Z_PK % 500 = 301;
            UPDATE ZBOOK SET ZSHELF = 999999 WHERE Z_PK % 500 = 401;
            COMMIT;
            """
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw BenchmarkError("cannot break the store: \(String(cString: sqlite3_errmsg(db)))") }
    }
}
