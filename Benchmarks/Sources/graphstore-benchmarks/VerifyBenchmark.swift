import CSQLiteRaw
import Foundation
import GraphStore

/// `verify` (every release check of `StoreVerifier`) on a store of 1,000,000 objects
/// (1,000 categories, 999,000 books, each book in a category), side by side in one run
/// with `PRAGMA integrity_check` through the C API, which is what `sqlite3 STORE
/// 'PRAGMA integrity_check'` runs. Target: verify within 3× of it.
enum VerifyBenchmark {
    static func run() throws {
        let objects = Int(1_000_000 * benchmarkScale)
        let categories = max(1, objects / 1_000)
        let books = objects - categories
        print("Verify: \(objects) objects (\(categories) categories, \(books) books)")
        let path = scratchPath("verify.sqlite")
        removeStore(path)
        try fill(path, categories: categories, books: books)
        let model = try bookStoreModel()
        let store = try PersistentStore(path: path, model: model)
        var failed = 0
        let ours = try measure("StoreVerifier.verify (every check)") {
            failed = try StoreVerifier(store: store).verify().filter { $0.status == .failed }.count
        }
        print("    \(failed) checks failed")
        let raw = try measure("PRAGMA integrity_check (C API)") { try integrityCheck(path) }
        report("verify", ours: ours, raw: raw, target: 3)
    }

    static func bookStoreModel() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("BookCategory") {
                AttributeDescription("name", .string)
                RelationshipDescription("books", to: "Book", inverse: "category", toMany: true)
            }
            EntityDescription("Book") {
                AttributeDescription("title", .string)
                AttributeDescription("price", .float).minimum(1)
                RelationshipDescription("category", to: "BookCategory", inverse: "books")
            }
        }
    }

    /// The store made by GraphStore, its rows written with plain SQL (fast), checkpointed.
    static func fill(_ path: String, categories: Int, books: Int) throws {
        _ = try PersistentStore.create(at: path, model: try bookStoreModel())
        var db: OpaquePointer?
        guard sqlite3_open(path, &db) == SQLITE_OK else { throw BenchmarkError("cannot open \(path)") }
        defer { sqlite3_close(db) }
        let sql = """
            BEGIN;
            WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < \(categories))
            INSERT INTO ZBOOKCATEGORY (Z_PK, Z_ENT, Z_OPT, ZNAME) SELECT x, 2, 1, 'Category ' || x FROM n;
            WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < \(books))
            INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZCATEGORY, ZPRICE, ZTITLE)
            SELECT x, 1, 1, 1 + x % \(categories), 1 + x % 50, 'Book ' || x FROM n;
            UPDATE Z_PRIMARYKEY SET Z_MAX = \(categories) WHERE Z_NAME = 'BookCategory';
            UPDATE Z_PRIMARYKEY SET Z_MAX = \(books) WHERE Z_NAME = 'Book';
            COMMIT;
            PRAGMA wal_checkpoint(TRUNCATE);
            """
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw BenchmarkError("cannot fill the store: \(String(cString: sqlite3_errmsg(db)))") }
    }

    static func integrityCheck(_ path: String) throws {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { throw BenchmarkError("cannot open \(path)") }
        defer { sqlite3_close(db) }
        guard sqlite3_exec(db, "PRAGMA integrity_check", nil, nil, nil) == SQLITE_OK else { throw BenchmarkError("integrity_check failed") }
    }
}
