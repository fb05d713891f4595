import Foundation
import Testing
import TestScratch
@testable import GraphStore

/// Keys Core Data never writes, in a damaged or hand-made store: 0 and negative keys are
/// keys like any other (`Book/p-5`, saved to the right row), while a key no object ID can
/// hold (below -2⁶², where unsaved objects' IDs live; a real below the 64-bit range reads as
/// the lowest integer) is an error naming the row and the column — never a trap, never an ID
/// that passes for an unsaved object's.
@Suite struct StoredKeyRangeTests {
    private let lowest = "-9223372036854775808"
    private let expectation = "a key of -4611686018427387904 or more"

    private func context(_ sql: String, readOnly: Bool = true) throws -> (ManagedObjectContext, String) {
        let path = try BrokenStores.changed(Fixtures.exampleStore, sql: sql)
        return (ManagedObjectContext(store: try PersistentStore(path: path, model: Fixtures.bookStoreModel(), readOnly: readOnly)), path)
    }

    private func books(_ context: ManagedObjectContext) throws -> [ManagedObject] {
        Array(try context.fetch(FetchRequest(entityName: "Book", sortKeys: [SortKey("title")])))
    }

    @Test func aNegativeKeyIsAPermanentIDAndASaveGoesToItsRow() throws {
        let (context, path) = try context("UPDATE ZBOOK SET Z_PK = -5 WHERE Z_PK = 1", readOnly: false)
        let first = try #require(try books(context).first)
        #expect(first.objectID.primaryKey == -5)
        #expect(!first.objectID.isTemporary)
        #expect(first.objectID.description == "Book/p-5")
        #expect(first.objectID.uriRepresentation.hasSuffix("/Book/p-5"))
        try first.set("title", "Renamed")
        try context.save()
        let stored = try Connection(path: path, mode: .readOnly).scalar("SELECT ZTITLE FROM ZBOOK WHERE Z_PK = -5")
        #expect(stored == .text("Renamed"))
    }

    @Test func aNegativeToOneKeyIsADanglingReferenceToThatKey() throws {
        let (context, _) = try context("UPDATE ZBOOK SET ZCATEGORY = -1 WHERE Z_PK = 2")
        let second = try #require(try books(context).first { try $0.get("title", as: String.self) == "The second book" })
        let category = try #require(try second.objectID(forKey: "category"))
        #expect(category.primaryKey == -1)
        #expect(category.description == "BookCategory/p-1")
    }

    @Test func aToOneKeyBelowTheRangeFailsTheFetchNamingRowAndColumn() throws {
        for stored in [lowest, "-9.3e18"] {
            let (context, _) = try context("UPDATE ZBOOK SET ZCATEGORY = \(stored) WHERE Z_PK = 2")
            let expected = StoreError.malformedValue(entity: "Book", primaryKey: 2, key: "category", column: "ZCATEGORY", found: lowest, expected: expectation)
            #expect(throws: expected) { _ = try books(context) }
            var ids = FetchRequest(entityName: "Book")
            ids.propertiesToFetch = ["category"]
            ids.resultType = .dictionary
            #expect(throws: StoreError.self) { _ = try context.fetchDictionaries(ids) }
        }
    }

    @Test func aRowKeyBelowTheRangeFailsFetchesOfObjectsAndIDs() throws {
        let (context, _) = try context("UPDATE ZBOOK SET Z_PK = \(lowest) WHERE Z_PK = 1")
        let expected = StoreError.malformedValue(entity: "Book", primaryKey: Int64.min, key: "Z_PK", column: "Z_PK", found: lowest, expected: expectation)
        #expect(throws: expected) { _ = try books(context) }
        #expect(throws: expected) { _ = try context.fetchObjectIDs(FetchRequest(entityName: "Book")) }
        #expect(throws: expected) { _ = try context.enumerateStoredRows(FetchRequest(entityName: "Book")) { _ in } }
        #expect(expected.description.contains("Book/p\(lowest): Z_PK (column Z_PK) holds \(lowest)"))
    }

    @Test func aStoredRowListsAKeyBelowTheRangeAmongItsProblems() throws {
        let (context, _) = try context("UPDATE ZBOOK SET ZCATEGORY = \(lowest) WHERE Z_PK = 2")
        let store = context.store
        let row = try #require(try store.row(of: store.mapping(for: "Book"), primaryKey: 2))
        #expect(row.problems == [.malformedValue(entity: "Book", primaryKey: 2, key: "category", column: "ZCATEGORY", found: lowest, expected: expectation)])
    }

    @Test func unsavedObjectsKeepTemporaryIDs() throws {
        let (context, _) = try context("SELECT 1", readOnly: false)
        let book = try context.insert("Book")
        #expect(book.objectID.isTemporary)
        #expect(book.objectID.primaryKey == nil)
        #expect(book.objectID.description == "Book/t1")
        #expect(book.objectID.uriRepresentation == "x-coredata:///Book/t1")
        try book.set("title", "Saved")
        try book.set("price", 20)
        try context.save()
        #expect(book.objectID.primaryKey == 4)
        #expect(book.objectID.description == "Book/p4")
    }
}
