import Foundation
import Testing

@testable import GraphStore

/// The SQLite layer's own rules: one statement per prepare (text after it is an error, as
/// in GRDB, not silently dropped), scripts only when asked for, and a statement that
/// outlives its connection fails with an error instead of reaching a closed connection.
@Suite struct StatementTests {
    @Test func textAfterTheFirstStatementIsAnError() throws {
        let connection = try Connection(path: ":memory:", mode: .create)
        let error = try #require(throws: SQLiteError.self) { try connection.prepare("SELECT 1; SELECT 2") }
        #expect(error.code == 21)
        #expect(error.message.contains("\"SELECT 2\""))
        #expect(error.offset == "SELECT 1;".utf8.count)
        // Text that is not even a statement counts too.
        #expect(throws: SQLiteError.self) { try connection.prepare("SELECT 1; nonsense") }
        // Separators, spaces and comments after the statement are not another statement.
        for sql in ["SELECT 1;", "SELECT 1;  \n", "SELECT 1; -- the end", "SELECT 1 /* one */ ;;"] {
            let statement = try connection.prepare(sql)
            #expect(try statement.step())
            #expect(statement.int64(0) == 1)
        }
        // execute runs one statement: two are refused before either runs.
        #expect(throws: SQLiteError.self) { try connection.execute("CREATE TABLE A (x); CREATE TABLE B (x)") }
        #expect(try !connection.tableExists("A"))
        #expect(try !connection.tableExists("B"))
    }

    @Test func aScriptRunsEveryStatement() throws {
        let connection = try Connection(path: ":memory:", mode: .create)
        try connection.executeScript("CREATE TABLE A (x); CREATE TABLE B (x); INSERT INTO B VALUES (7)")
        #expect(try connection.tableExists("A"))
        #expect(try connection.scalar("SELECT x FROM B") == .integer(7))
    }

    @Test func aStatementThatOutlivesItsConnectionFailsToRun() throws {
        var connection: Connection? = try Connection(path: ":memory:", mode: .create)
        let statement = try #require(try connection?.prepare("SELECT ?"))
        let cached = try #require(try connection?.cachedStatement("SELECT ? + 1"))
        connection = nil
        for kept in [statement, cached] {
            // Binding and resetting touch only the statement, which stays valid until it goes.
            try kept.bind([.integer(1)])
            let error = try #require(throws: SQLiteError.self) { try kept.step() }
            #expect(error.code == 21)
            #expect(error.message == "the statement's connection is closed")
            kept.reset()
        }
    }
}
