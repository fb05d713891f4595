import CSQLite
import Foundation
import Testing

/// A MATCHES past its work limit fails the command in a script: a message naming the
/// pattern and the limit, and a non-zero exit, instead of an empty answer and status 0.
@Suite struct MatchesLimitTests {
    static let pathological = "(?:(a+)+b|a*)"

    /// A copy of the example store with a book titled by a long run of `a`.
    static func storeWithLongTitle(in directory: Scratch) throws -> String {
        let path = directory.path + "/BookStore.sqlite"
        try FileManager.default.copyItem(atPath: GraphStoreBinary.exampleStore, toPath: path)
        var db: OpaquePointer?
        guard sqlite3_open(path, &db) == SQLITE_OK else { throw CocoaError(.fileReadCorruptFile) }
        defer { sqlite3_close(db) }
        let title = String(repeating: "a", count: 40)
        let sql = """
            INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZPRICE, ZTITLE, ZCATEGORY) VALUES (4, 1, 1, 5, '\(title)', 1);
            UPDATE Z_PRIMARYKEY SET Z_MAX = 4 WHERE Z_NAME = 'Book';
            """
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw CocoaError(.fileWriteUnknown) }
        return path
    }

    @Test func aPatternPastTheLimitFailsTheScript() throws {
        let directory = try Scratch()
        let store = try Self.storeWithLongTitle(in: directory)
        let result = try GraphStoreBinary.run([store, "-c", "count Book where title MATCHES '\(Self.pathological)'"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "-c:1: MATCHES gave up on the pattern '\(Self.pathological)': more than 10000000 backtracking steps on one string (the limit)\n")
        // The same pattern on the example's short titles answers.
        let short = try GraphStoreBinary.run(["--mode", "csv", GraphStoreBinary.exampleStore, "-c", "count Book where title MATCHES '(?:(a+)+b|.*)'"])
        #expect(short.status == 0)
        #expect(short.stdout == "count\n3\n")
    }
}
