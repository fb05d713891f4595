import CSQLite
import Foundation

/// A copy of the BookStore example with many books, made with plain SQL (inserting through
/// the library would take most of the test's time) and kept in the temporary directory for
/// later runs; the tests only read it.
enum LargeStore {
    static let bookCount = 300_000

    /// The path of the store (named BookStore.sqlite, like the example, so that the prompt
    /// reads the same), made on first use.
    static let path: String = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("graphstore-e2e-books-\(bookCount)").path
        let path = directory + "/BookStore.sqlite"
        if FileManager.default.fileExists(atPath: path) { return path }
        // Built in another directory and renamed when complete, so that a test run in
        // parallel never reads it half made.
        let building = directory + ".\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: building, withIntermediateDirectories: true)
        try? FileManager.default.copyItem(atPath: GraphStoreBinary.exampleStore, toPath: building + "/BookStore.sqlite")
        defer {
            if rename(building, directory) != 0 { try? FileManager.default.removeItem(atPath: building) }
        }
        var db: OpaquePointer?
        guard sqlite3_open(building + "/BookStore.sqlite", &db) == SQLITE_OK else { return path }
        defer { sqlite3_close(db) }
        let sql = """
            WITH RECURSIVE n(x) AS (SELECT 4 UNION ALL SELECT x + 1 FROM n WHERE x < \(bookCount + 3))
            INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZPRICE, ZTITLE, ZCATEGORY)
                SELECT x, 1, 1, x % 50, 'Book number ' || x, 1 + x % 2 FROM n;
            UPDATE Z_PRIMARYKEY SET Z_MAX = \(bookCount + 3) WHERE Z_NAME = 'Book';
            """
        sqlite3_exec(db, sql, nil, nil, nil)
        return path
    }()
}
