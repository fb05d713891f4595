import Foundation
import Testing
@testable import GraphStore

/// Oddities found in real stores: read what can be read, report the rest, keep writes right.
@Suite struct StoreAnomalyTests {
    @Test func zMaxOfMinusOneIsReportedAndKeysStartAboveTheLargest() throws {
        let path = try Fixtures.newStorePath()
        let model = try Fixtures.bookStoreModel()
        do {
            let context = ManagedObjectContext(store: try PersistentStore.create(at: path, model: model))
            for title in ["a", "b", "c"] { try context.insert("Book").set("title", title) }
            try context.save()
        }
        try Connection(path: path, mode: .readWrite).execute("UPDATE Z_PRIMARYKEY SET Z_MAX = -1")
        let store = try PersistentStore(path: path, model: model, readOnly: false)
        #expect(store.anomalies.contains("entity Book: Z_MAX is -1 but the largest Z_PK is 3; new keys will start above 3"))
        let context = ManagedObjectContext(store: store)
        let book = try context.insert("Book")
        try context.save()
        #expect(book.objectID.primaryKey == 4)
        #expect(try Connection(path: path, mode: .readOnly).scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Book'") == .integer(4))
    }

    @Test func derivedAttributeTriggersDoNotBreakWrites() throws {
        let path = try Fixtures.newStorePath()
        let model = try Fixtures.bookStoreModel()
        _ = try PersistentStore.create(at: path, model: model)
        // The shape of Core Data's derived-attribute triggers: they call functions only
        // Core Data registers.
        try Connection(path: path, mode: .readWrite).execute("""
            CREATE TRIGGER Z_DA_ZPAGE_Book_pagesCount_PARAMETER_INSERT AFTER INSERT ON ZPAGE FOR EACH ROW
            BEGIN SELECT NSCoreDataDATriggerInsertUpdatedAffectedObjectValue('ZBOOK', 0, NEW.ZBOOK, 'ZPAGESCOUNT', 1); END
            """)
        let context = ManagedObjectContext(store: try PersistentStore(path: path, model: model, readOnly: false))
        try context.insert("Page").set("text", "one")
        try context.save()
        #expect(try Connection(path: path, mode: .readOnly).scalar("SELECT COUNT(*) FROM ZPAGE") == .integer(1))
        // Without the stand-ins the same insert fails, which is why they are registered.
        #expect(throws: SQLiteError.self) {
            try Connection(path: path, mode: .readWrite).execute("INSERT INTO ZPAGE (Z_PK, Z_ENT, Z_OPT) VALUES (99, 3, 1)")
        }
    }

    @Test func aStoreFromAReadOnlyFolderWithALogIsReadFromAPrivateCopy() throws {
        let path = try Fixtures.newStorePath()
        let model = try Fixtures.bookStoreModel()
        let writer = try PersistentStore.create(at: path, model: model)
        let context = ManagedObjectContext(store: writer)
        try context.insert("Book").set("title", "only in the log")
        try context.save()
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder) }
        let before = Fixtures.fingerprint(path)
        let reader = try PersistentStore(path: path, model: model)
        #expect(try reader.count(of: try reader.mapping(for: "Book")) == 1)
        #expect(Fixtures.fingerprint(path) == before)
    }
}
