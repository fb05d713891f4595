import CSQLite
import Foundation

/// A copy of the BookStore example with many books, made once per test run with plain SQL
/// (inserting through the library would take most of the test's time).
enum LargeStore {
    static let bookCount = 300_000

    /// The path of the store, made on first use.
    static let path: String = {
        let path = (try? GraphStoreBinary.copy(GraphStoreBinary.exampleStore)) ?? ""
        var db: OpaquePointer?
        guard sqlite3_open(path, &db) == SQLITE_OK else { return path }
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
