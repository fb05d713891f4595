import Foundation
import Testing
import TestScratch
@testable import GraphStore

/// Numbers in `Z_PRIMARYKEY` that are not whole numbers of 64 bits (a real beyond
/// `Int64`, infinity, a fraction, text) are errors naming the table, row and column, at
/// open and when keys are handed out — never a trap.
@Suite struct BookkeepingIntegerTests {
    private func opening(_ sql: String) throws -> (path: String, error: StoreError?) {
        let path = try BrokenStores.changed(Fixtures.exampleStore, sql: sql)
        do {
            _ = try PersistentStore(path: path)
            return (path, nil)
        } catch {
            return (path, error)
        }
    }

    @Test func aRealBeyondInt64InZMaxIsAnErrorNamingItsPlace() throws {
        let (path, error) = try opening("UPDATE Z_PRIMARYKEY SET Z_MAX = 1e300 WHERE Z_NAME = 'Book'")
        #expect(error == .malformedInteger(path: path, table: "Z_PRIMARYKEY", row: "Z_ENT 1 (Book)", column: "Z_MAX", found: "real 1e+300"))
        #expect(error?.description.contains("Z_PRIMARYKEY row Z_ENT 1 (Book): Z_MAX holds real 1e+300") == true)
    }

    @Test func infinityAndFractionsAreRefusedToo() throws {
        let (path, infinite) = try opening("UPDATE Z_PRIMARYKEY SET Z_MAX = 9e999 WHERE Z_NAME = 'Page'")
        #expect(infinite == .malformedInteger(path: path, table: "Z_PRIMARYKEY", row: "Z_ENT 3 (Page)", column: "Z_MAX", found: "real inf"))
        let (other, fraction) = try opening("UPDATE Z_PRIMARYKEY SET Z_MAX = 2.5 WHERE Z_NAME = 'BookCategory'")
        #expect(fraction == .malformedInteger(path: other, table: "Z_PRIMARYKEY", row: "Z_ENT 2 (BookCategory)", column: "Z_MAX", found: "real 2.5"))
    }

    @Test func textInZSuperIsAnError() throws {
        let (path, error) = try opening("UPDATE Z_PRIMARYKEY SET Z_SUPER = 'abc' WHERE Z_NAME = 'Page'")
        #expect(error == .malformedInteger(path: path, table: "Z_PRIMARYKEY", row: "Z_ENT 3 (Page)", column: "Z_SUPER", found: "text \"abc\""))
    }

    @Test func aZSuperBeyondInt64IsAnError() throws {
        let (path, error) = try opening("UPDATE Z_PRIMARYKEY SET Z_SUPER = -1e19 WHERE Z_NAME = 'Book'")
        #expect(error == .malformedInteger(path: path, table: "Z_PRIMARYKEY", row: "Z_ENT 1 (Book)", column: "Z_SUPER", found: "real -1e+19"))
    }

    /// `Z_MAX` is read again when keys are handed out: a value another program wrote
    /// there since the store opened is an error of the save, not a crash.
    @Test func aBadZMaxWrittenAfterOpeningFailsTheSave() throws {
        let path = try BrokenStores.copy(Fixtures.exampleStore)
        let store = try PersistentStore(path: path, model: Fixtures.bookStoreModel(), readOnly: false)
        try Connection(path: path, mode: .readWrite).execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 1e300 WHERE Z_NAME = 'Book'")
        let context = ManagedObjectContext(store: store)
        try context.insert("Book").set("title", "After the change")
        #expect(throws: StoreError.malformedInteger(path: path, table: "Z_PRIMARYKEY", row: "Z_ENT 1 (Book)", column: "Z_MAX", found: "real 1e+300")) {
            try context.save()
        }
        #expect(try Connection(path: path, mode: .readOnly).scalar("SELECT COUNT(*) FROM ZBOOK") == .integer(3))
    }

    /// A row's own numbers (`Z_OPT`, to-one keys) that are not whole numbers are listed
    /// among the row's problems, naming the column, rather than read as some integer.
    @Test func aRowsKeyOrVersionThatIsNotAWholeNumberIsAProblemOfTheRow() throws {
        let path = try BrokenStores.changed(Fixtures.exampleStore, sql: "UPDATE ZBOOK SET ZCATEGORY = 2.5, Z_OPT = 'x' WHERE Z_PK = 1")
        let store = try PersistentStore(path: path, model: Fixtures.bookStoreModel())
        let row = try #require(try store.row(of: store.mapping(for: "Book"), primaryKey: 1))
        #expect(row.problems == [
            .malformedValue(entity: "Book", primaryKey: 1, key: "Z_OPT", column: "Z_OPT", found: "text \"x\"", expected: "a whole number"),
            .malformedValue(entity: "Book", primaryKey: 1, key: "category", column: "ZCATEGORY", found: "real 2.5", expected: "a whole number"),
        ])
        let other = try #require(try store.row(of: store.mapping(for: "Book"), primaryKey: 2))
        #expect(other.problems.isEmpty)
    }

    @Test func aDoubleNoInt64HoldsIsNotATrapWhenEncoded() {
        #expect(RowCodec.encode(.double(1e300), as: .integer64) == .real(1e300))
        #expect(RowCodec.encode(.double(2.7), as: .integer64) == .integer(2))
    }

    /// The largest Int64 is a valid number, but no key fits above it.
    @Test func aZMaxAtTheTopOfInt64LeavesNoRoomAndSaysSo() throws {
        let path = try BrokenStores.changed(Fixtures.exampleStore, sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 9223372036854775807 WHERE Z_NAME = 'Book'")
        let context = ManagedObjectContext(store: try PersistentStore(path: path, model: Fixtures.bookStoreModel(), readOnly: false))
        try context.insert("Book").set("title", "One too many")
        #expect {
            try context.save()
        } throws: { error in
            guard case StoreError.malformedStore(_, let reason) = error else { return false }
            return reason.contains("Z_MAX 9223372036854775807 leaves no room")
        }
    }

    /// One below the largest Int64 leaves room for exactly one key: the last one Int64
    /// holds is handed out (counting past it used to trap), and the next save says so.
    @Test func theLastKeyInt64HoldsIsHandedOutAndNoneAfterIt() throws {
        let path = try BrokenStores.changed(Fixtures.exampleStore, sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 9223372036854775806 WHERE Z_NAME = 'Book'")
        let context = ManagedObjectContext(store: try PersistentStore(path: path, model: Fixtures.bookStoreModel(), readOnly: false))
        let last = try context.insert("Book")
        try last.set("title", "The last one")
        try context.save()
        #expect(last.objectID.primaryKey == Int64.max)
        try context.insert("Book").set("title", "One too many")
        #expect {
            try context.save()
        } throws: { error in
            guard case StoreError.malformedStore(_, let reason) = error else { return false }
            return reason.contains("Z_MAX 9223372036854775807 leaves no room")
        }
    }
}
