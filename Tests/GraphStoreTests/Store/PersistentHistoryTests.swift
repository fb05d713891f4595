import Foundation
import Testing

@testable import GraphStore

/// Persistent history: a save to a store that tracks it appends the transaction and change
/// rows Core Data writes, in the save's own transaction, and the history reads and purges as
/// Core Data's history requests do. The store with history is the corpus's SwiftData store
/// (38 transactions, 55 changes written by Core Data), always copied.
@Suite struct PersistentHistoryTests {
    static let corpusStore = "stores/sergd2005__ResourcesManager/default.store"

    /// A writable copy of the corpus store (with its -wal and -shm), or nil when the corpus
    /// is not there.
    private func copyOfCorpusStore(_ test: String) throws -> String? {
        guard let corpus = try Fixtures.requireCorpus(test) else { return nil }
        let source = corpus.appendingPathComponent(Self.corpusStore).path
        let copy = try Fixtures.newStorePath("default.store")
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: source + suffix) {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: copy + suffix)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy + suffix)
        }
        return copy
    }

    private func rows(_ path: String, _ sql: String) throws -> [[SQLiteValue]] {
        try Connection(path: path, mode: .readOnly).rows(sql)
    }

    private func count(_ path: String, _ table: String) throws -> Int64? {
        try Connection(path: path, mode: .readOnly).scalar("SELECT COUNT(*) FROM \(table)")?.integer
    }

    private func historyMaxima(_ path: String) throws -> [[SQLiteValue]] {
        try rows(path, "SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 ORDER BY Z_ENT")
    }

    @Test func aSaveAppendsTheTransactionAndChangeRowsCoreDataWrites() throws {
        guard let path = try copyOfCorpusStore("aSaveAppendsTheTransactionAndChangeRowsCoreDataWrites") else { return }
        #expect(try historyMaxima(path) == [[.integer(16001), .integer(55)], [.integer(16002), .integer(38)], [.integer(16003), .integer(12)]])
        let store = try PersistentStore(path: path, readOnly: false)
        #expect(store.keepsHistory)
        let context = ManagedObjectContext(store: store)
        context.transactionAuthor = "importer"
        context.name = "editor"
        let bolts = try context.existingObject(entity: "Item", primaryKey: 10)
        try bolts.set("name", "Bolt")
        let rope = try context.insert("Item")
        try rope.set("name", "Rope")
        try context.delete(try context.existingObject(entity: "Item", primaryKey: 12))
        let before = Date()
        try context.save()
        let after = Date()

        // One transaction: key 39 (Z_MAX 38), author, context and process interned as new
        // strings from 13 (Z_MAX 12; Core Data leaves the counter above the rows it kept).
        let transaction = try rows(path, "SELECT Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZTIMESTAMP, ZAUTHOR, ZBUNDLEID, ZCONTEXTNAME, ZPROCESSID, ZQUERYGEN FROM ATRANSACTION WHERE Z_PK > 38")
        #expect(transaction.count == 1)
        let row = try #require(transaction.first)
        #expect(Array(row[0...6]) == [.integer(39), .integer(16002), .null, .integer(13), .null, .integer(14), .integer(15)])
        #expect(Array(row[8...12]) == [.null, .null, .null, .null, .null])
        guard case .real(let seconds) = row[7] else { Issue.record("ZTIMESTAMP is \(row[7])"); return }
        #expect(seconds >= before.timeIntervalSinceReferenceDate && seconds <= after.timeIntervalSinceReferenceDate)
        #expect(try rows(path, "SELECT Z_PK, Z_ENT, Z_OPT, ZNAME FROM ATRANSACTIONSTRING WHERE Z_PK > 2 ORDER BY Z_PK") == [
            [.integer(13), .integer(16003), .null, .text("importer")],
            [.integer(14), .integer(16003), .null, .text("editor")],
            [.integer(15), .integer(16003), .null, .text(ProcessInfo.processInfo.processName)],
        ])

        // Its changes: the insert (Item 13, Z_MAX 12), then updates, then the delete; the
        // rename's ZCOLUMNS marks name (0x40: craftingRecipe is 0x80, as Core Data's rows show).
        let changes = try rows(path, "SELECT Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS FROM ACHANGE WHERE Z_PK > 55 ORDER BY Z_PK")
        #expect(changes.first == [.integer(16001), .null, .integer(0), .integer(3), .integer(13), .integer(39), .null])
        #expect(changes.contains([.integer(16001), .null, .integer(1), .integer(3), .integer(10), .integer(39), .blob(Data([0x40]))]))
        #expect(changes.last == [.integer(16001), .null, .integer(2), .integer(3), .integer(12), .integer(39), .null])
        #expect(try historyMaxima(path) == [[.integer(16001), .integer(55 + Int64(changes.count))], [.integer(16002), .integer(39)], [.integer(16003), .integer(15)]])

        // A second save by the same author and context interns nothing new.
        try bolts.set("name", "Bolts")
        try context.save()
        #expect(try count(path, "ATRANSACTIONSTRING") == 5)
        #expect(try rows(path, "SELECT ZAUTHORTS, ZCONTEXTNAMETS, ZPROCESSIDTS FROM ATRANSACTION WHERE Z_PK = 40") == [[.integer(13), .integer(14), .integer(15)]])
        #expect(try historyMaxima(path)[2] == [.integer(16003), .integer(15)])
    }

    @Test func historyReadsAfterATokenAndDecodesCoreDataRows() throws {
        guard let path = try copyOfCorpusStore("historyReadsAfterATokenAndDecodesCoreDataRows") else { return }
        let store = try PersistentStore(path: path, readOnly: false)
        let all = try store.fetchHistory(after: nil as HistoryToken?)
        #expect(all.map(\.number) == Array(1...38))
        #expect(all.flatMap(\.changes).count == 55)
        #expect(all[0].bundleID == "com.sdsoftware.ResourcesManager" && all[0].processID == "ResourcesManager" && all[0].author == nil)
        // Core Data's own update rows: setting item 1's recipe (0x80), renaming item 9 (0x40).
        let third = try #require(all.first { $0.number == 3 })
        #expect(third.changes.map(\.changeType) == [.insert, .update])
        #expect(third.changes[1].entityName == "Item" && third.changes[1].primaryKey == 1)
        #expect(third.changes[1].updatedProperties == ["craftingRecipe"])
        #expect(all.first { $0.number == 37 }?.changes.first?.updatedProperties == ["name"])

        let context = ManagedObjectContext(store: store)
        context.transactionAuthor = "importer"
        try context.existingObject(entity: "Item", primaryKey: 10).set("name", "Bolt")
        try context.save()
        let newer = try store.fetchHistory(after: HistoryToken(transactionNumber: 38))
        #expect(newer.count == 1)
        #expect(newer.first?.author == "importer" && newer.first?.token == HistoryToken(transactionNumber: 39))
        #expect(newer.first?.changes.map(\.updatedProperties) == [["name"]])
        #expect(try store.fetchHistory(after: HistoryToken(transactionNumber: 39)).isEmpty)
        #expect(try store.fetchHistory(after: Date(timeIntervalSinceReferenceDate: 743915974)).map(\.number) == [37, 38, 39])
    }

    @Test func deletingBeforeATokenKeepsTheTokensTransaction() throws {
        guard let path = try copyOfCorpusStore("deletingBeforeATokenKeepsTheTokensTransaction") else { return }
        let store = try PersistentStore(path: path, readOnly: false)
        #expect(try store.deleteHistory(before: HistoryToken(transactionNumber: 30)) == 29)
        #expect(try store.fetchHistory(after: nil as HistoryToken?).map(\.number) == Array(30...38))
        #expect(try count(path, "ACHANGE") == 12)
        #expect(try rows(path, "SELECT MIN(ZTRANSACTIONID) FROM ACHANGE") == [[.integer(30)]])
        #expect(try count(path, "ATRANSACTIONSTRING") == 2)
        #expect(try store.deleteHistory(before: Date(timeIntervalSinceReferenceDate: 743915974)) == 7)
        #expect(try store.fetchHistory(after: nil as HistoryToken?).map(\.number) == [37, 38])
    }

    @Test func aFailedSaveAddsNoHistory() throws {
        guard let path = try copyOfCorpusStore("aFailedSaveAddsNoHistory") else { return }
        // The change rows fail after the transaction row and its strings are written.
        try Connection(path: path, mode: .readWrite).execute("CREATE TRIGGER refuse BEFORE INSERT ON ACHANGE BEGIN SELECT RAISE(ABORT, 'refused'); END")
        let maxima = try historyMaxima(path)
        let store = try PersistentStore(path: path, readOnly: false)
        let context = ManagedObjectContext(store: store)
        context.transactionAuthor = "importer"
        try context.existingObject(entity: "Item", primaryKey: 10).set("name", "Bolt")
        #expect(throws: (any Error).self) { try context.save() }
        #expect(try count(path, "ATRANSACTION") == 38)
        #expect(try count(path, "ATRANSACTIONSTRING") == 2)
        #expect(try count(path, "ACHANGE") == 55)
        #expect(try historyMaxima(path) == maxima)
        #expect(try rows(path, "SELECT ZNAME FROM ZITEM WHERE Z_PK = 10") == [[.text("Bolts")]])
    }

    /// A store made from a Swift model, with Core Data's history tables added.
    private func storeWithHistoryTables(_ model: ManagedObjectModel) throws -> String {
        let path = try Fixtures.newStorePath()
        _ = try PersistentStore.create(at: path, model: model)
        try Connection(path: path, mode: .readWrite).executeScript("""
            CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB );
            CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB );
            CREATE TABLE ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
            CREATE UNIQUE INDEX Z_TRANSACTIONSTRING_UNIQUE_NAME ON ATRANSACTIONSTRING (ZNAME COLLATE BINARY ASC);
            INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (16001, 'CHANGE', 0, 0), (16002, 'TRANSACTION', 0, 0), (16003, 'TRANSACTIONSTRING', 0, 0);
            """)
        return path
    }

    @Test func anUpdateWhoseColumnsAreNotEstablishedIsRefusedUnlessHistoryIsTurnedOff() throws {
        let path = try storeWithHistoryTables(try Fixtures.layoutModel())
        let store = try PersistentStore(path: path, readOnly: false)
        let context = ManagedObjectContext(store: store)
        let author = try context.insert("Author")
        try author.set("name", "Le Guin")
        try context.save()  // inserts are established whatever the entity
        #expect(try count(path, "ACHANGE") == 1)
        try author.set("alias", "UKL")
        #expect {
            try context.save()
        } throws: { error in
            guard case HistoryError.cannotRecord(_, let reason) = error else { return false }
            return reason.contains("Author inherits from Writer") && "\(error)".contains("savesHistory")
        }
        #expect(try count(path, "ATRANSACTION") == 1)
        #expect(try rows(path, "SELECT ZALIAS FROM ZWRITER") == [[.null]])
        context.savesHistory = false
        try context.save()
        #expect(try count(path, "ATRANSACTION") == 1)
        #expect(try rows(path, "SELECT ZALIAS FROM ZWRITER") == [[.text("UKL")]])
    }

    @Test func aDeleteNeedingTombstonesIsRefused() throws {
        var text = AttributeDescription("text", .string)
        text.preservesValueInHistoryOnDeletion = true
        let model = try ManagedObjectModel(entities: [EntityDescription("Page", attributes: [text])])
        let path = try storeWithHistoryTables(model)
        let store = try PersistentStore(path: path, model: model, readOnly: false)
        let context = ManagedObjectContext(store: store)
        let page = try context.insert("Page")
        try page.set("text", "one")
        try context.save()
        try context.delete(page)
        #expect {
            try context.save()
        } throws: { error in
            guard case HistoryError.cannotRecord(_, let reason) = error else { return false }
            return reason.contains("tombstone") && reason.contains("text")
        }
        #expect(try count(path, "ZPAGE") == 1)
    }

    @Test func aStoreWithoutHistoryGetsNoneAndSaysSoWhenAsked() throws {
        let path = try Fixtures.newStorePath()
        let store = try PersistentStore.create(at: path, model: try Fixtures.bookStoreModel())
        #expect(!store.keepsHistory)
        let context = ManagedObjectContext(store: store)
        try context.insert("Page").set("text", "one")
        try context.save()
        #expect(try rows(path, "SELECT name FROM sqlite_master WHERE name LIKE 'A%'").isEmpty)
        #expect(throws: HistoryError.notKept(path: store.path)) { try store.fetchHistory(after: nil as HistoryToken?) }
    }
}
